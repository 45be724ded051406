import Foundation
import ImgCache
import TestSupport
import XCTest

/// The verbs that read a file, on HEIC and AVIF made by heif-enc and avifenc: `info` prints the
/// header facts, `decode` writes the target, a header over the pixel limit exits 5 before
/// decoding, and `slice` and `overlay` take a HEIC screenshot.
final class HEIFCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        guard HEIFFixtures.toolsInstalled else { throw XCTSkip("heif-enc or avifenc is missing (make setup installs them)") }
        folder = try CLIRunner.temporaryFolder()
    }

    func testInfoPrintsTheHEICsFormatAndSizeAndDecodeWritesTheTarget() throws {
        let heic = try HEIFFixtures.heic(try HEIFFixtures.picture(width: 320, height: 240), "photo.heic", in: folder)
        let info = try CLIRunner.run(["info", heic])
        XCTAssertEqual(info.status, 0, info.errors)
        XCTAssertTrue(info.output.contains("format:      HEIC"), info.output)
        XCTAssertTrue(info.output.contains("size:        320x240 pixels"), info.output)
        let out = folder.appendingPathComponent("small.png").path
        let decode = try CLIRunner.run(["decode", heic, "--size", "100x100", "-o", out])
        XCTAssertEqual(decode.status, 0, decode.errors)
        let decoded = try ImageDecoder.decode(.file(path: out))
        XCTAssertEqual(decoded.size, PixelSize(width: 100, height: 75))
        XCTAssertGreaterThan(
            PSNR.of(decoded.frames[0].bitmap.pixels, try ImageDecoder.decode(
                .data(try PNGEncoder.encode(try HEIFFixtures.picture(width: 320, height: 240))),
                options: DecodingOptions(targetSize: PixelSize(width: 100, height: 100))).frames[0].bitmap.pixels),
            30)
    }

    func testAHeaderOverThePixelLimitExits5() throws {
        for name in ["big.avif", "big.heic"] {
            let bitmap = try HEIFFixtures.picture(width: 32, height: 32)
            let path = name.hasSuffix("avif")
                ? try HEIFFixtures.avif([bitmap], name, in: folder) : try HEIFFixtures.heic(bitmap, name, in: folder)
            let bytes = HEIFFixtures.withSpatialExtents(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), width: 12_000, height: 10_000)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let info = try CLIRunner.run(["info", path])
            XCTAssertTrue(info.output.contains("size:        12000x10000 pixels"), info.output + info.errors)
            let result = try CLIRunner.run(["decode", path, "--size", "100x100", "-o", folder.appendingPathComponent("x.png").path])
            XCTAssertEqual(result.status, 5, result.errors)
            XCTAssertTrue(result.errors.contains("12000x10000"), result.errors)
        }
    }

    func testSliceCutsTheWallpaperOutOfAHEICScreenshot() throws {
        let png = try HomeScreenshot.write(size: PixelSize(width: 750, height: 1334), to: folder.appendingPathComponent("se.png"))
        let bitmap = try ImageDecoder.decode(.file(path: png)).frames[0].bitmap
        let heic = try HEIFFixtures.heic(bitmap, "se.heic", in: folder, options: ["-L", "-p", "chroma=444"])
        let arguments = ["--widget", "medium", "--position", "top"]
        let fromPNG = try CLIRunner.run(["slice", png, "-o", "png-slice.png"] + arguments, in: folder)
        XCTAssertEqual(fromPNG.status, 0, fromPNG.errors)
        let fromHEIC = try CLIRunner.run(["slice", heic, "-o", "heic-slice.png"] + arguments, in: folder)
        XCTAssertEqual(fromHEIC.status, 0, fromHEIC.errors)
        let a = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("png-slice.png").path)).frames[0].bitmap
        let b = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("heic-slice.png").path)).frames[0].bitmap
        XCTAssertEqual(a.size, b.size)
        XCTAssertGreaterThan(PSNR.of(a.pixels, b.pixels), 40)
        let overlay = try CLIRunner.run(["overlay", heic, "-o", "overlay.png"], in: folder)
        XCTAssertEqual(overlay.status, 0, overlay.errors)
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: folder.appendingPathComponent("overlay.png").path)).size, PixelSize(width: 750, height: 1334))
    }
}
