import Foundation
import ImgCache
import TestSupport
import XCTest

/// `--progressive`, `--chroma` and `--palette` on `decode` and `slice`, and serve's
/// `--jpeg-progressive`, `--chroma`, `--png-quantize` and `--png-quantization-colors` (and their
/// variables): what they write, and exit 2 for a bad value.
final class EncoderOptionCommandTests: XCTestCase {
    /// The start-of-frame marker byte (0xC0 baseline, 0xC2 progressive) and the components'
    /// sampling factor bytes of the JPEG at `path`.
    private func startOfFrame(_ path: String) throws -> (UInt8, [UInt8]) {
        try XCTUnwrap(EncodedLayout.startOfFrame(try Data(contentsOf: URL(fileURLWithPath: path))), path)
    }

    func testDecodeWritesProgressive444JPEGAndPalettePNG() throws {
        let folder = try CLIRunner.temporaryFolder()
        let harbour = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        let plain = try CLIRunner.run(["decode", harbour, "--size", "300x300", "-o", "plain.jpg"], in: folder)
        XCTAssertEqual(plain.status, 0, plain.errors)
        let tuned = try CLIRunner.run(
            ["decode", harbour, "--size", "300x300", "--progressive", "--chroma", "444", "-o", "tuned.jpg"], in: folder)
        XCTAssertEqual(tuned.status, 0, tuned.errors)
        let plainFrame = try startOfFrame(folder.appendingPathComponent("plain.jpg").path)
        let tunedFrame = try startOfFrame(folder.appendingPathComponent("tuned.jpg").path)
        XCTAssertEqual(plainFrame.0, 0xC0)
        XCTAssertEqual(plainFrame.1, [0x22, 0x11, 0x11])
        XCTAssertEqual(tunedFrame.0, 0xC2)
        XCTAssertEqual(tunedFrame.1, [0x11, 0x11, 0x11])

        let badge = CLIRunner.media.appendingPathComponent("badge.png").path
        let palette = try CLIRunner.run(["decode", badge, "--size", "160x160", "--palette", "16", "-o", "badge.png"], in: folder)
        XCTAssertEqual(palette.status, 0, palette.errors)
        let png = EncodedLayout.png(try Data(contentsOf: folder.appendingPathComponent("badge.png")))
        XCTAssertEqual(png.colorType, 3)
        XCTAssertEqual(png.bitDepth, 4)
        XCTAssertEqual(png.chunkLengths["PLTE"], 16 * 3)
        let bare = try CLIRunner.run(["decode", badge, "--palette", "--size", "160x160", "-o", "badge256.png"], in: folder)
        XCTAssertEqual(bare.status, 0, bare.errors)
        let bare256 = EncodedLayout.png(try Data(contentsOf: folder.appendingPathComponent("badge256.png")))
        XCTAssertEqual(bare256.colorType, 3)
        XCTAssertEqual(bare256.chunkLengths["PLTE"], 256 * 3)
    }

    func testBadValuesExit2() throws {
        let folder = try CLIRunner.temporaryFolder()
        let harbour = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        try CLIRunner.assertFailures("decode", [
            ([harbour, "--size", "100x100", "--chroma", "422"], 2, "--chroma expects 420 or 444, got '422'"),
            ([harbour, "--size", "100x100", "--palette", "1"], 2, "--palette expects a number of colours from 2 to 256, got '1'"),
            ([harbour, "--size", "100x100", "--palette=300"], 2, "--palette expects a number of colours from 2 to 256, got '300'"),
            ([harbour, "--size", "100x100", "--palette=many"], 2, "--palette expects a number of colours from 2 to 256, got 'many'"),
        ], in: folder)
        try CLIRunner.assertFailures("serve", [
            (["--allow-unsigned", "--chroma", "422"], 2, "--chroma expects 420 or 444, got '422'"),
            (["--allow-unsigned", "--png-quantization-colors", "1"], 2,
             "--png-quantization-colors expects a whole number from 2 to 256, got '1'"),
        ], in: folder)
        let variable = try ProductRunner.run(
            "imgcache", ["serve", "--allow-unsigned"], in: folder, environment: ["IMGCACHE_JPEG_PROGRESSIVE": "maybe"])
        XCTAssertEqual(variable.status, 2, variable.errors)
        XCTAssertTrue(variable.errors.contains("IMGCACHE_JPEG_PROGRESSIVE expects 1 or 0, got 'maybe'"), variable.errors)
    }
}
