import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// WebP files that lie or end early: each is a typed error (or, where the data allows, a decode),
/// never a crash, and sizes are refused from the headers before libwebp allocates anything.
final class WebPHostileFileTests: XCTestCase {
    private let scene = TestImages.scene(width: 120, height: 80, translucent: true)

    private func file(_ bench: WebPWorkbench, _ options: [String]) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: bench.cwebp(scene, "still.webp", options)))
    }

    /// A two-frame animation (lossless, 120x80) made with img2webp.
    private func animation(_ bench: WebPWorkbench) throws -> Data {
        _ = try bench.png(scene, "a.png")
        _ = try bench.png(TestImages.scene(width: 120, height: 80, seed: 9), "b.png")
        try bench.run("img2webp", ["a.png", "b.png", "-o", "anim.webp"])
        return try Data(contentsOf: bench.folder.appendingPathComponent("anim.webp"))
    }

    private func assertCorrupt(_ data: Data, _ detail: String? = nil, options: DecodingOptions = DecodingOptions(),
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try ImageDecoder.decode(.data(data), options: options), file: file, line: line) {
            guard case ImgCacheError.corruptImage(format: .webp, let found) = $0 else { return XCTFail("\($0)", file: file, line: line) }
            if let detail { XCTAssertEqual(found, detail, file: file, line: line) }
        }
    }

    private static func withRIFFSize(_ data: Data, _ size: UInt32) -> Data {
        var data = data
        data.replaceSubrange(4..<8, with: (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        return data
    }

    func testRIFFSizeLies() throws {
        let bench = try WebPWorkbench()
        let still = try file(bench, ["-lossless"])
        assertCorrupt(Self.withRIFFSize(still, 100), "invalid bitstream or RIFF container while reading the headers")
        // A RIFF size beyond the data is a truncated file, as for dwebp; accepting truncated data,
        // the image data being whole, the image is whole.
        let longer = Self.withRIFFSize(still, UInt32(still.count + 1000))
        assertCorrupt(longer, "data ends before the image does (truncated file)")
        let accepting = DecodingOptions(acceptsTruncatedData: true)
        XCTAssertEqual(try ImageDecoder.decode(.data(longer), options: accepting), try ImageDecoder.decode(.data(still)))
        assertCorrupt(Self.withRIFFSize(still, 0xFFFF_FFFF))
        let animation = try animation(bench)
        assertCorrupt(Self.withRIFFSize(animation, UInt32(animation.count + 1000)))
        assertCorrupt(Self.withRIFFSize(animation, 40))
    }

    func testAHugeAnimationCanvasIsRefusedFromItsHeader() throws {
        let bench = try WebPWorkbench()
        var huge = try animation(bench)
        XCTAssertEqual(huge[12..<16], Data("VP8X".utf8))
        huge.replaceSubrange(24..<30, with: [0xFF, 0x3F, 0x00, 0xFF, 0x3F, 0x00]) // 16384x16384
        let canvas = PixelSize(width: 16384, height: 16384)
        XCTAssertEqual(try ImageDecoder.inspect(.data(huge)).size, canvas)
        XCTAssertThrowsError(try ImageDecoder.decode(.data(huge))) {
            XCTAssertEqual($0 as? ImgCacheError, .dimensionsOverLimit(width: 16384, height: 16384, limit: 100_000_000))
        }
        // Within the pixels a frame may have, the canvas and its copy (8 bytes a pixel) are over
        // the 128 MiB of working memory: 16,777,216 pixels at 8 bytes.
        let options = DecodingOptions(targetSize: PixelSize(width: 100, height: 100), limits: DecodingLimits(maxPixelsPerFrame: 300_000_000))
        try huge.withUnsafeBytes { bytes in
            XCTAssertThrowsError(try WebPDecoder.decode(.memory(bytes), targets: [options]) { _, _, _ in }) {
                XCTAssertEqual($0 as? ImgCacheError, .dimensionsOverLimit(width: 16384, height: 16384, limit: 16_777_216))
            }
        }
    }

    func testAHugeLosslessHeaderIsRefusedFromItsHeader() throws {
        // VP8L: signature 0x2F, then 14 bits of width - 1, 14 of height - 1, alpha and version.
        let payload: [UInt8] = [0x2F, 0xFF, 0xFF, 0xFF, 0x0F] + [UInt8](repeating: 0, count: 11)
        var data = Data("RIFF".utf8) + [UInt8(4 + 8 + payload.count), 0, 0, 0] + Data("WEBPVP8L".utf8)
        data += [UInt8(payload.count), 0, 0, 0] + payload
        XCTAssertEqual(try ImageDecoder.inspect(.data(data)).size, PixelSize(width: 16384, height: 16384))
        XCTAssertThrowsError(try ImageDecoder.decode(.data(data))) {
            XCTAssertEqual($0 as? ImgCacheError, .dimensionsOverLimit(width: 16384, height: 16384, limit: 100_000_000))
        }
        // libwebp holds a lossless image whole (4 bytes a pixel): over the working memory.
        let options = DecodingOptions(targetSize: PixelSize(width: 100, height: 100), limits: DecodingLimits(maxPixelsPerFrame: 300_000_000))
        XCTAssertThrowsError(try ImageDecoder.decode(.data(data), options: options)) {
            guard case ImgCacheError.dimensionsOverLimit(16384, 16384, _) = $0 else { return XCTFail("\($0)") }
        }
    }

    func testTruncatedStillsFailOrKeepTheRowsDecoded() throws {
        let bench = try WebPWorkbench()
        for options in [["-lossless", "-exact"], ["-q", "80"]] {
            let whole = try file(bench, options)
            let full = try ImageDecoder.decode(.data(whole)).frames[0].bitmap
            // Past the alpha chunk of the lossy file, which comes before its image data.
            let cut = whole.prefix(whole.count * 7 / 8)
            assertCorrupt(cut, "data ends before the image does (truncated file)")
            let partial = try ImageDecoder.decode(.data(cut), options: DecodingOptions(acceptsTruncatedData: true))
            XCTAssertTrue(partial.info.isTruncated)
            let bitmap = partial.frames[0].bitmap
            XCTAssertEqual(bitmap.size, scene.size)
            let rowBytes = scene.size.width * 4
            XCTAssertEqual(bitmap.pixels.prefix(rowBytes * 8), full.pixels.prefix(rowBytes * 8), "\(options): the first rows")
            XCTAssertEqual(bitmap.pixels.suffix(rowBytes).filter { $0 != 0 }.count, 0, "\(options): the last row is transparent")
            assertCorrupt(whole.prefix(40), options: DecodingOptions(acceptsTruncatedData: true))
        }
        let animation = try animation(bench)
        assertCorrupt(animation.prefix(animation.count - 100), options: DecodingOptions(acceptsTruncatedData: true))
    }

    func testGarbageAfterTheSignatureIsCorrupt() {
        var random = SeededGenerator(seed: 4)
        for length in [0, 4, 8, 30, 200] {
            let garbage = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            assertCorrupt(Data("RIFF".utf8) + [UInt8(4 + length), 0, 0, 0] + Data("WEBP".utf8) + garbage)
        }
        assertCorrupt(Data("RIFF\u{10}\0\0\0WEBPVP8X".utf8) + [10, 0, 0, 0])
        // An animation's headers (VP8X, ANIM) with no frame.
        let vp8x: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0, 0x02, 0, 0, 0, 99, 0, 0, 99, 0, 0]
        let anim: [UInt8] = Array("ANIM".utf8) + [6, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let body = Array("WEBP".utf8) + vp8x + anim
        assertCorrupt(Data("RIFF".utf8) + [UInt8(body.count), 0, 0, 0] + body, "malformed or truncated RIFF container (chunks cannot be parsed)")
    }

    /// A pipe that never ends (a FIFO fed by a writer that reopens it for the sniffing and then
    /// for the decode) is read up to `SourceBytes.maxStreamedBytes`, then refused.
    func testAnEndlessPipeIsReadOnlyUpToTheStreamLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("endless.webp").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["python3", "-c", """
            import sys
            for _ in range(2):
                try:
                    with open(sys.argv[1], "wb") as f:
                        f.write(b"RIFF\\xff\\xff\\xff\\x7fWEBPVP8 ")
                        while True:
                            f.write(bytes(65536))
                except BrokenPipeError:
                    pass
            """, fifo]
        try writer.run()
        defer { writer.terminate() }
        XCTAssertThrowsError(try ImageDecoder.decode(.file(path: fifo))) {
            XCTAssertEqual(
                $0 as? ImgCacheError,
                .corruptImage(format: .webp, detail: "a WEBP read from a stream is limited to \(SourceBytes.maxStreamedBytes) bytes"))
        }
    }

    /// Cuts and flipped bytes anywhere in a still and an animation: a decode or a typed error.
    func testDamagedFilesNeverCrash() throws {
        let bench = try WebPWorkbench()
        var random = SeededGenerator(seed: 11)
        for original in [try file(bench, ["-q", "60"]), try file(bench, ["-lossless"]), try animation(bench)] {
            for trial in 0..<150 {
                var bytes = [UInt8](original)
                if trial % 3 == 0 {
                    bytes.removeLast(Int(random.next() % UInt64(bytes.count - 16)))
                } else {
                    for _ in 0...(trial % 4) { bytes[16 + Int(random.next() % UInt64(bytes.count - 16))] = UInt8(truncatingIfNeeded: random.next()) }
                }
                for accepts in [false, true] {
                    let options = DecodingOptions(targetSize: PixelSize(width: 50, height: 50), acceptsTruncatedData: accepts)
                    do { _ = try ImageDecoder.decode(.data(Data(bytes)), options: options) } catch is ImgCacheError {}
                }
            }
        }
    }
}
