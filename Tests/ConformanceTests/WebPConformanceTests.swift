import Foundation
import XCTest
@testable import ImgCache

/// libwebp-test-data (the WebM project's decoder test vectors), read in place: every file decodes
/// at its own size to RGBA whose SHA-256 equals that of dwebp 1.2.4's output
/// (expected/dwebp-1.2.4.txt, made with dwebp's defaults: fancy upsampling, no dithering).
final class WebPConformanceTests: XCTestCase {
    /// bryce.webp is 11158x2156 (24 megapixels), over the default output limit of 16,777,216
    /// pixels: it is compared at its own size with the output limit raised to hold it.
    private let roomForBryce = DecodingLimits(maxOutputPixels: 11158 * 2156)

    func testEveryFileDecodesToDwebpsPixels() throws {
        let folder = try Corpus.folder("libwebp-test-data")
        let expected = try Self.expectations(folder.appendingPathComponent("expected/dwebp-1.2.4.txt"))
        var matched = 0
        for (name, reference) in expected.sorted(by: { $0.key < $1.key }) {
            let options = DecodingOptions(limits: roomForBryce)
            let decoded = try ImageDecoder.decode(.file(path: folder.appendingPathComponent(name).path), options: options)
            let bitmap = decoded.frames[0].bitmap
            XCTAssertEqual(bitmap.size, reference.size, name)
            XCTAssertEqual(decoded.info.sourceSize, reference.size, name)
            if try Corpus.sha256(bitmap.pixels) == reference.digest { matched += 1 } else { XCTFail("\(name): pixels differ from dwebp's") }
        }
        Corpus.report("WebP conformance", ["files equal to dwebp 1.2.4": matched, "listed": expected.count])
        print("WebP conformance: \(matched) of \(expected.count) files decode to dwebp 1.2.4's RGBA")
        XCTAssertEqual(expected.count, 130)
        XCTAssertEqual(matched, expected.count)
    }

    /// With the default limits bryce.webp is refused at its own size, before any pixel is
    /// decoded, and decodes to a target.
    func testBryceIsOverTheOutputLimitAtItsOwnSizeAndDecodesScaled() throws {
        let bryce = try Corpus.file("libwebp-test-data/bryce.webp")
        XCTAssertThrowsError(try ImageDecoder.decode(.file(path: bryce.path))) {
            XCTAssertEqual($0 as? ImgCacheError, .dimensionsOverLimit(width: 11158, height: 2156, limit: 4096 * 4096))
        }
        let scaled = try ImageDecoder.decode(
            .file(path: bryce.path), options: DecodingOptions(targetSize: PixelSize(width: 1014, height: 474)))
        XCTAssertEqual(scaled.size, PixelSize(width: 1014, height: 196))
    }

    /// `name.webp: <sha256> WxH` a line.
    private static func expectations(_ url: URL) throws -> [String: (digest: String, size: PixelSize)] {
        var result: [String: (digest: String, size: PixelSize)] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0].hasSuffix(":") else { continue }
            let sides = fields[2].split(separator: "x").compactMap { Int($0) }
            result[String(fields[0].dropLast())] = (String(fields[1]), PixelSize(width: sides[0], height: sides[1]))
        }
        return result
    }
}
