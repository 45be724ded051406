import Foundation
import XCTest
@testable import ImgCache

final class ImageFormatTests: XCTestCase {
    func testFormatComesFromMagicBytesOnly() throws {
        XCTAssertEqual(try ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(try ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), .png)
        XCTAssertEqual(try ImageFormat.sniff(Array("GIF89a".utf8)), .gif)
        XCTAssertEqual(try ImageFormat.sniff(Array("GIF87a".utf8)), .gif)
        XCTAssertThrowsError(try ImageFormat.sniff(Array("GIF88a".utf8)))
        XCTAssertThrowsError(try ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47])) // a cut PNG signature
        XCTAssertEqual(try ImageFormat.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)), .webp)
        XCTAssertThrowsError(try ImageFormat.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8)))
        XCTAssertThrowsError(try ImageFormat.sniff(Array("RIFF\0\0\0\0WEB".utf8))) // a cut WebP signature
        XCTAssertThrowsError(try ImageFormat.sniff([UInt8]())) {
            XCTAssertEqual($0 as? ImgCacheError, .unsupportedFormat(detail: "empty input"))
        }
        XCTAssertThrowsError(try ImageFormat.sniff(Array("<html>".utf8))) {
            XCTAssertEqual($0 as? ImgCacheError, .unsupportedFormat(detail: "not JPEG, PNG, GIF, WEBP, HEIC or AVIF (starts with 3C 68 74 6D)"))
        }
    }

    func testAPNGNamedJPGDecodesAsPNG() throws {
        let bitmap = TestImages.scene(width: 20, height: 10)
        let path = try TestImages.pngFile(bitmap, name: "really-a-png.jpg")
        let decoded = try ImageDecoder.decode(.file(path: path))
        XCTAssertEqual(decoded.info.format, .png)
        XCTAssertEqual(decoded.frames[0].bitmap, bitmap)
    }

    func testMissingFileIsAnIOErrorNamingThePath() {
        XCTAssertThrowsError(try ImageDecoder.decode(.file(path: "/nonexistent/x.png"))) {
            XCTAssertEqual($0 as? ImgCacheError, .io(path: "/nonexistent/x.png", detail: "no such file"))
        }
    }

    func testInvalidOptionsAreRejectedBeforeReading() {
        var options = DecodingOptions()
        options.maxFrames = 0
        XCTAssertThrowsError(try ImageDecoder.decode(.data(Data()), options: options)) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("max frames 0 is not in 1...10000"))
        }
    }

    func testFramesKeptFollowTheBudgetAndAtLeastOne() {
        var options = DecodingOptions(maxFrames: 8, frameBudgetBytes: 15 * 1024 * 1024)
        let frame = PixelSize(width: 510, height: 383) // 781,320 bytes a frame
        XCTAssertEqual(options.framesToKeep(frameSize: frame), 8)
        options.frameBudgetBytes = 3 * 781_320 + 5
        XCTAssertEqual(options.framesToKeep(frameSize: frame), 3)
        options.frameBudgetBytes = 10
        XCTAssertEqual(options.framesToKeep(frameSize: frame), 1)
    }
}
