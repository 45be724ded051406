import Foundation
import XCTest
import ImgCache
import TestSupport

final class DecodeCommandTests: XCTestCase {
    func testDecodeWritesThePixelExactFitSizeAndReportsIt() throws {
        let folder = try CLIRunner.temporaryFolder()
        let output = folder.appendingPathComponent("harbour.png").path
        let result = try CLIRunner.run([
            "decode", CLIRunner.media.appendingPathComponent("harbour.jpg").path, "--size", "1014x474", "-o", output,
        ])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("711x474 PNG, 1 frame"), result.output)
        let written = try ImageDecoder.decode(.file(path: output))
        XCTAssertEqual(written.info.format, .png)
        XCTAssertEqual(written.size, PixelSize(width: 711, height: 474))
    }

    func testAWebPIsInspectedAndDecodedLikeTheOtherFormats() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cwebp") else {
            throw XCTSkip("/usr/bin/cwebp is missing (apt-get install webp, or make setup)")
        }
        let folder = try CLIRunner.temporaryFolder()
        let webp = folder.appendingPathComponent("harbour.webp").path
        let cwebp = try ProductRunner.runTool(
            "cwebp", ["-quiet", "-q", "80", CLIRunner.media.appendingPathComponent("harbour.jpg").path, "-o", webp])
        XCTAssertEqual(cwebp.status, 0, cwebp.errors)

        let info = try CLIRunner.run(["info", webp])
        XCTAssertEqual(info.status, 0, info.errors)
        XCTAssertTrue(info.output.contains("format:      WEBP"), info.output)
        XCTAssertTrue(info.output.contains("size:        3000x2000 pixels"), info.output)
        let decode = try CLIRunner.run(["decode", webp, "--size", "1014x474", "-o", "harbour.jpg"], in: folder)
        XCTAssertEqual(decode.status, 0, decode.errors)
        XCTAssertTrue(decode.output.contains("711x474 JPEG, 1 frame"), decode.output)
        XCTAssertEqual(try ImageDecoder.decode(.file(path: folder.appendingPathComponent("harbour.jpg").path)).size,
                       PixelSize(width: 711, height: 474))
    }

    /// `-o x.webp` keeps every frame kept (an animated WebP from the spinner's GIF) and a still
    /// is lossy; `--max-bytes` lowers the quality to fit, and exits 14 when nothing fits.
    func testWebPOutputKeepsTheFramesAndMaxBytesCapsTheOutput() throws {
        let folder = try CLIRunner.temporaryFolder()
        let spinner = CLIRunner.media.appendingPathComponent("spinner.gif").path
        let harbour = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        let animated = try CLIRunner.run(["decode", spinner, "--size", "120x120", "--max-frames", "6", "-o", "spin.webp"], in: folder)
        XCTAssertEqual(animated.status, 0, animated.errors)
        XCTAssertTrue(animated.output.contains("120x120 WEBP, 6 frames"), animated.output)
        let frames = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("spin.webp").path), options: DecodingOptions(maxFrames: 100))
        XCTAssertEqual(frames.info.format, .webp)
        XCTAssertEqual(frames.frames.count, 6)

        let still = try CLIRunner.run(["decode", harbour, "--size", "400x400", "-o", "full.webp"], in: folder)
        XCTAssertEqual(still.status, 0, still.errors)
        let full = try Data(contentsOf: folder.appendingPathComponent("full.webp"))
        XCTAssertEqual(String(decoding: full[12..<16], as: UTF8.self), "VP8 ")
        let cap = full.count * 2 / 3
        let capped = try CLIRunner.run(["decode", harbour, "--size", "400x400", "--max-bytes", "\(cap)", "-o", "capped.webp"], in: folder)
        XCTAssertEqual(capped.status, 0, capped.errors)
        let cappedBytes = try Data(contentsOf: folder.appendingPathComponent("capped.webp")).count
        XCTAssertLessThanOrEqual(cappedBytes, cap)
        XCTAssertTrue(capped.output.contains("400x267 WEBP, 1 frame, \(cappedBytes) bytes"), capped.output)

        let tooSmall = try CLIRunner.run(["decode", harbour, "--size", "400x400", "--max-bytes", "300", "-o", "tiny.jpg"], in: folder)
        XCTAssertEqual(tooSmall.status, 14, tooSmall.errors)
        XCTAssertTrue(tooSmall.errors.contains("over the cap of 300 bytes (max bytes)"), tooSmall.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tiny.jpg").path))
        let zero = try CLIRunner.run(["decode", harbour, "--size", "400x400", "--max-bytes", "0", "-o", "zero.jpg"], in: folder)
        XCTAssertEqual(zero.status, 2, zero.errors)
    }

    func testCropModeWritesExactlyTheTargetAsJPEG() throws {
        let folder = try CLIRunner.temporaryFolder()
        let result = try CLIRunner.run([
            "decode", CLIRunner.media.appendingPathComponent("harbour.jpg").path, "--size", "510x510", "--mode", "crop",
            "-o", "square.jpg",
        ], in: folder)
        XCTAssertEqual(result.status, 0, result.errors)
        let written = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("square.jpg").path))
        XCTAssertEqual(written.info.format, .jpeg)
        XCTAssertEqual(written.size, PixelSize(width: 510, height: 510))
    }

    /// `--gravity` and `--focus` place the crop as the library does; each place gives other pixels.
    func testGravityAndFocusPlaceTheCrop() throws {
        let folder = try CLIRunner.temporaryFolder()
        let source = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        var outputs: [[UInt8]] = []
        for (flags, gravity) in [([String](), CropGravity.center), (["--gravity", "west"], .west), (["--gravity", "south-east"], .southEast),
                                 (["--focus", "0.8,0.1"], .focus(x: 0.8, y: 0.1))] {
            let result = try CLIRunner.run(["decode", source, "--size", "100x300", "--mode", "crop", "-o", "out.png"] + flags, in: folder)
            XCTAssertEqual(result.status, 0, result.errors)
            let written = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("out.png").path))
            let expected = try ImageDecoder.decode(
                .file(path: source), options: DecodingOptions(targetSize: PixelSize(width: 100, height: 300), contentMode: .crop, gravity: gravity))
            XCTAssertEqual(written.size, PixelSize(width: 100, height: 300), "\(flags)")
            XCTAssertTrue(written.frames[0].bitmap.pixels == expected.frames[0].bitmap.pixels, "\(flags)")
            outputs.append(written.frames[0].bitmap.pixels)
        }
        XCTAssertEqual(Set(outputs).count, 4, "every placement cuts a different window")

        let refusals: [([String], String)] = [
            (["--size", "100x300", "--gravity", "north"], "--gravity and --focus place a crop or a padding: they need --mode crop or pad"),
            (["--size", "100x300", "--mode", "crop", "--gravity", "up"], "--gravity expects center, north, south"),
            (["--size", "100x300", "--mode", "crop", "--focus", "1.2,0"], "--focus expects X,Y in fractions"),
            (["--size", "100x300", "--mode", "crop", "--focus", "0.5"], "--focus expects X,Y in fractions"),
            (["--size", "100x300", "--mode", "crop", "--focus", "0.5,0.5", "--gravity", "west"], "give --gravity or --focus, not both"),
        ]
        for (flags, message) in refusals {
            let result = try CLIRunner.run(["decode", source, "-o", "x.png"] + flags, in: folder)
            XCTAssertEqual(result.status, 2, "\(flags)")
            XCTAssertTrue(result.errors.contains(message), "\(flags): \(result.errors)")
        }
    }

    /// `--mode pad` writes exactly the target: the fit placed by gravity, the rest `--background`.
    func testPadModeWritesTheTargetWithTheFitPlacedOnTheBackground() throws {
        let folder = try CLIRunner.temporaryFolder()
        let source = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        let fitted = try ImageDecoder.decode(.file(path: source), options: DecodingOptions(targetSize: PixelSize(width: 300, height: 300)))
        XCTAssertEqual(fitted.size, PixelSize(width: 300, height: 200))
        let cases: [([String], top: Int, fill: [UInt8])] = [
            ([], 50, [0, 0, 0, 0]), (["--gravity", "north", "--background", "FF8000"], 0, [255, 128, 0, 255]),
            (["--gravity", "south", "--background", "00ff0080"], 100, [0, 255, 0, 128]),
        ]
        for (flags, top, fill) in cases {
            let result = try CLIRunner.run(["decode", source, "--size", "300x300", "--mode", "pad", "-o", "pad.png"] + flags, in: folder)
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertTrue(result.output.contains("300x300 PNG, 1 frame"), result.output)
            let written = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("pad.png").path)).frames[0].bitmap
            let rowBytes = 300 * 4
            XCTAssertTrue(Array(written.pixels[top * rowBytes..<(top + 200) * rowBytes]) == fitted.frames[0].bitmap.pixels, "\(flags)")
            let padding = top == 0 ? 200 : 0
            XCTAssertEqual(Array(written.pixels[padding * rowBytes..<padding * rowBytes + 4]), fill, "\(flags)")
        }
        // An opaque background makes an opaque output, which the automatic format writes as JPEG.
        let jpeg = try CLIRunner.run(["decode", source, "--size", "300x300", "--mode", "pad", "--background", "000000"], in: folder)
        XCTAssertEqual(jpeg.status, 0, jpeg.errors)
        XCTAssertTrue(jpeg.output.contains("300x300 JPEG, 1 frame"), jpeg.output)
        let bad = try CLIRunner.run(["decode", source, "--size", "300x300", "--mode", "pad", "--background", "black"], in: folder)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.errors.contains("--background expects RRGGBB or RRGGBBAA hex digits"), bad.errors)
        let smart = try CLIRunner.run(["decode", source, "--size", "300x300", "--mode", "pad", "--gravity", "smart"], in: folder)
        XCTAssertEqual(smart.status, 2)
        XCTAssertTrue(smart.errors.contains("--gravity smart picks a crop's window: it needs --mode crop"), smart.errors)
    }

    /// `--gravity smart` cuts the window of most interest, as the library does; it needs a crop.
    func testSmartGravityCutsWhatTheLibraryCuts() throws {
        let folder = try CLIRunner.temporaryFolder()
        let source = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        let result = try CLIRunner.run(["decode", source, "--size", "300x100", "--mode", "crop", "--gravity", "smart", "-o", "smart.png"], in: folder)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("300x100 PNG, 1 frame"), result.output)
        let written = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("smart.png").path))
        let expected = try ImageDecoder.decode(
            .file(path: source), options: DecodingOptions(targetSize: PixelSize(width: 300, height: 100), contentMode: .crop, gravity: .smart))
        XCTAssertTrue(written.frames[0].bitmap.pixels == expected.frames[0].bitmap.pixels)
        let refused = try CLIRunner.run(["decode", source, "--size", "300x100", "--gravity", "smart", "-o", "x.png"], in: folder)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.errors.contains("--gravity and --focus place a crop or a padding: they need --mode crop or pad"), refused.errors)
    }

    /// `--size 300x` and `--size x100` give one side; the other follows the source (3000x2000).
    func testASizeOfOneSideFitsToItWithTheSourcesAspectRatio() throws {
        let folder = try CLIRunner.temporaryFolder()
        let source = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        for (flags, expected) in [(["--size", "300x"], PixelSize(width: 300, height: 200)), (["--size", "x100"], PixelSize(width: 150, height: 100)),
                                  (["--size", "150X", "--scale", "2"], PixelSize(width: 300, height: 200))] {
            let result = try CLIRunner.run(["decode", source, "-o", "one-side.png"] + flags, in: folder)
            XCTAssertEqual(result.status, 0, "\(flags): \(result.errors)")
            XCTAssertEqual(try ImageDecoder.inspect(.file(path: folder.appendingPathComponent("one-side.png").path)).size, expected, "\(flags)")
        }
        for flags in [["--size", "x"], ["--size", "0x"], ["--size", "300x0"], ["--size", "300"], ["--size", "-3x"]] {
            let result = try CLIRunner.run(["decode", source, "-o", "x.png"] + flags, in: folder)
            XCTAssertEqual(result.status, 2, "\(flags)")
            XCTAssertTrue(result.errors.contains("--size expects WxH, Wx or xH"), "\(flags): \(result.errors)")
        }
        let crop = try CLIRunner.run(["decode", source, "-o", "x.png", "--size", "300x", "--mode", "crop"], in: folder)
        XCTAssertEqual(crop.status, 2)
        XCTAssertTrue(crop.errors.contains("a size of one side (300x) fits: it takes --mode fit"), crop.errors)
    }

    func testDefaultOutputNameCarriesTheSizeAndKeepsAlphaAsPNG() throws {
        let folder = try CLIRunner.temporaryFolder()
        let result = try CLIRunner.run(
            ["decode", CLIRunner.media.appendingPathComponent("badge.png").path, "--size", "100x100"], in: folder)
        XCTAssertEqual(result.status, 0, result.errors)
        let written = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("badge.100x100.png").path))
        XCTAssertEqual(written.size, PixelSize(width: 100, height: 100))
        XCTAssertFalse(written.frames[0].bitmap.isOpaque)
    }

    func testErrorsGiveOneLineOnStandardErrorAndTheDocumentedExitCode() throws {
        let folder = try CLIRunner.temporaryFolder()
        let text = folder.appendingPathComponent("notes.jpg")
        try Data("hello".utf8).write(to: text)
        let truncated = folder.appendingPathComponent("cut.jpg")
        let jpeg = try Data(contentsOf: CLIRunner.media.appendingPathComponent("harbour.jpg"))
        try jpeg.prefix(jpeg.count / 3).write(to: truncated)

        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["decode", text.path, "--size", "10x10"], 3, "unsupported format"),
            (["decode", truncated.path, "--size", "10x10", "-o", "x.png"], 4, "truncated"),
            (["decode", folder.appendingPathComponent("missing.png").path, "--size", "10x10"], 6, "no such file"),
            (["decode", text.path], 2, "--size WxH (or --device with --widget) is required"),
            (["decode", text.path, "--size", "ten"], 2, "--size expects"),
            (["decode", text.path, "--size", "10x10", "--bogus"], 2, "unknown option --bogus"),
            (["decode", text.path, "--size", "10x10", "-o", "out.bmp"], 2, "output format"),
            (["frobnicate"], 2, "unknown verb"),
        ]
        for testCase in cases {
            let result = try CLIRunner.run(testCase.arguments, in: folder)
            XCTAssertEqual(result.status, testCase.status, "\(testCase.arguments): \(result.errors)")
            XCTAssertTrue(result.errors.contains(testCase.message), "\(testCase.arguments): \(result.errors)")
            XCTAssertEqual(result.errors.split(separator: "\n").count, 1, result.errors)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.png").path))
    }

    func testTruncatedInputDecodesWhenAccepted() throws {
        let folder = try CLIRunner.temporaryFolder()
        let truncated = folder.appendingPathComponent("cut.jpg")
        let jpeg = try Data(contentsOf: CLIRunner.media.appendingPathComponent("harbour.jpg"))
        try jpeg.prefix(jpeg.count / 2).write(to: truncated)
        let result = try CLIRunner.run(["decode", truncated.path, "--size", "300x300", "--accept-truncated", "-o", "cut.png"], in: folder)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("truncated"), result.output)
    }

    func testAnimatedGIFKeepsMaxFramesOrWhatTheBudgetAllowsButAtLeastOne() throws {
        let folder = try CLIRunner.temporaryFolder()
        let spinner = CLIRunner.media.appendingPathComponent("spinner.gif").path
        // 120x120 frames take 57,600 bytes each: a 200,000-byte budget holds 3, a tiny one still 1.
        let cases: [(arguments: [String], frames: Int)] = [
            (["--max-frames", "8"], 8), (["--max-frames", "8", "--budget", "200000"], 3),
            (["--budget", "1KB"], 1), ([], 36),
        ]
        for (index, testCase) in cases.enumerated() {
            let output = folder.appendingPathComponent("out\(index).gif").path
            let result = try CLIRunner.run(["decode", spinner, "--size", "120x120", "-o", output] + testCase.arguments)
            XCTAssertEqual(result.status, 0, result.errors)
            let written = try ImageDecoder.inspect(.file(path: output))
            XCTAssertEqual(written.frameCount, testCase.frames, "\(testCase.arguments)")
            XCTAssertEqual(written.size, PixelSize(width: 120, height: 120))
            XCTAssertEqual(written.loopCount, 0)
        }
    }

    func testDecodeTakesAWidgetTargetToo() throws {
        let folder = try CLIRunner.temporaryFolder()
        let output = folder.appendingPathComponent("widget.png").path
        let result = try CLIRunner.run([
            "decode", CLIRunner.media.appendingPathComponent("harbour.jpg").path, "--device", "iPhone SE (3rd generation)",
            "--widget", "small", "-o", output,
        ])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: output)).size, PixelSize(width: 296, height: 296))
    }

    func testHelpAndVersion() throws {
        let help = try CLIRunner.run(["decode", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.output.contains("--max-frames N"))
        let version = try CLIRunner.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.output.hasPrefix("imgcache "))
    }
}
