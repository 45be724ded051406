import Foundation
import XCTest
@testable import ImgCache

/// `CachedData.source` of a disk cache file holds the file open itself, so it reads the stored
/// bytes after its `CachedData` is gone, whatever takes the descriptor numbers freed meanwhile.
final class CachedDataSourceTests: XCTestCase {
    func testASourceDecodesTheSamePixelsAfterItsCachedDataIsGoneAndOtherFilesAreOpened() throws {
        let cache = try makeCache()
        let picture = TestImages.scene(width: 96, height: 64, seed: 3)
        let stored: [(key: String, bytes: Data)] = [
            ("https://example.com/scene.png", try PNGEncoder.encode(picture)),
            // WebP is mapped whole: a source reading another file could fault past its end.
            ("https://example.com/scene.webp", try WebPEncoder.encode(picture, compression: .lossless)),
        ]
        var sources: [ImageSource] = []
        for (key, bytes) in stored {
            try cache.storeData(CachedData(data: bytes), for: key, kind: .original)
            // Only the source is kept: the CachedData ends with this iteration.
            let source = try XCTUnwrap(cache.cachedData(for: key)).source
            guard case .openFile = source else { return XCTFail("\(key): \(source) holds no open file") }
            sources.append(source)
            XCTAssertEqual(try cache.remove(key: key), 1)
        }
        XCTAssertEqual(try cache.stats().entryCount, 0)

        // Files opened now take the lowest free descriptor numbers, those a CachedData that closed
        // its file on going would have freed.
        let others = try makeRoot()
        let handles = try (0..<64).map { number in
            let url = others.appendingPathComponent("other-\(number)")
            try Data("not the cached image \(number)".utf8).write(to: url)
            return try FileHandle(forReadingFrom: url)
        }
        defer { for handle in handles { try? handle.close() } }

        for (source, (key, _)) in zip(sources, stored) {
            let decoded = try ImageDecoder.decode(source)
            XCTAssertEqual(decoded.frames.count, 1, key)
            XCTAssertTrue(decoded.frames[0].bitmap == picture, "\(key): other pixels")
            XCTAssertEqual(try ImageDecoder.inspect(source).size, picture.size, key)
        }
    }

    func testAnOpenFileSourceReadsTheFileItOpenedAfterItsPathIsReplaced() throws {
        let folder = try makeRoot()
        let path = folder.appendingPathComponent("picture.png").path
        let first = TestImages.scene(width: 40, height: 30, seed: 1)
        try PNGEncoder.encode(first).write(to: URL(fileURLWithPath: path))
        let source = ImageSource.openFile(try OpenFile(path: path))
        let replacement = folder.appendingPathComponent("replacement.png").path
        try PNGEncoder.encode(TestImages.scene(width: 20, height: 10, seed: 2)).write(to: URL(fileURLWithPath: replacement))
        XCTAssertEqual(rename(replacement, path), 0)

        XCTAssertTrue(try ImageDecoder.decode(source).frames[0].bitmap == first)
        XCTAssertEqual(try ImageDecoder.decode(.file(path: path)).frames[0].bitmap.size, PixelSize(width: 20, height: 10))
        XCTAssertThrowsError(try OpenFile(path: folder.path)) { error in
            XCTAssertEqual(error as? ImgCacheError, .io(path: folder.path, detail: "is a directory"))
        }
        XCTAssertThrowsError(try OpenFile(path: folder.appendingPathComponent("none").path)) { error in
            XCTAssertEqual(error as? ImgCacheError, .io(path: folder.appendingPathComponent("none").path, detail: "no such file"))
        }
    }
}
