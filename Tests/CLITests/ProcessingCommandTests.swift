import Foundation
import ImgCache
import TestSupport
import XCTest

/// `--blur` and `--tint` on the command line: `slice` (a file and a URL through the cache give the
/// same pixels, the blur in the screen's points), `decode`, `fetch` (a second variant), and
/// refused values (exit 2, one line).
final class ProcessingCommandTests: XCTestCase {
    private func decoded(_ path: String) throws -> Bitmap {
        try ImageDecoder.decode(.file(path: path)).frames[0].bitmap
    }

    func testSliceBlursInTheScreensPointsAndTintsAFileAndAURLAlike() throws {
        let folder = try CLIRunner.temporaryFolder()
        let size = PixelSize(width: 750, height: 1334)
        let layout = try HomeScreenLayout.resolve(screenshot: size)
        let slot = try layout.slot(.medium, at: .top)
        let bitmap = try HomeScreenshot.bitmap(size: size, painted: [(slot.rect.insetForTest, HomeScreenshot.colour(1))])
        let screenshot = folder.appendingPathComponent("home.png")
        try HomeScreenshot.png(bitmap).write(to: screenshot)

        let local = try CLIRunner.run(
            ["slice", "home.png", "--widget", "medium", "--position", "top", "--blur", "4", "--tint", "dark", "-o", "local.png"], in: folder)
        XCTAssertEqual(local.status, 0, local.errors)
        let cached = try CLIRunner.run([
            "slice", screenshot.absoluteString, "--widget", "medium", "--position", "top", "--blur", "4", "--tint", "dark",
            "-o", "cached.png", "--cache-dir", folder.appendingPathComponent("cache").path,
        ], in: folder)
        XCTAssertEqual(cached.status, 0, cached.errors)

        // 4 points on this 2x screen are 8 pixels; the dark overlay follows the blur.
        XCTAssertEqual(layout.scale, 2)
        let slice = try HomeScreenshot.crop(bitmap, slot.rect)
        let image = DecodedImage(info: ImageInfo(format: .png, sourceSize: slice.size), frames: [ImageFrame(bitmap: slice)])
        let context = ImageProcessingContext(scale: 1)
        let expected = try Tint.dark.process(try GaussianBlur(sigma: 8, unit: .pixels).process(image, context: context), context: context)
        XCTAssertEqual(try decoded(folder.appendingPathComponent("local.png").path), expected.frames[0].bitmap)
        XCTAssertEqual(try decoded(folder.appendingPathComponent("cached.png").path), expected.frames[0].bitmap)
        XCTAssertNotEqual(expected.frames[0].bitmap, slice)

        let plain = try CLIRunner.run(["slice", "home.png", "--widget", "medium", "--position", "top", "-o", "plain.png"], in: folder)
        XCTAssertEqual(plain.status, 0, plain.errors)
        XCTAssertEqual(try decoded(folder.appendingPathComponent("plain.png").path), slice)
    }

    func testDecodeBlursTheResizedImageAndFetchStoresASecondVariant() throws {
        let folder = try CLIRunner.temporaryFolder()
        let source = try HomeScreenshot.bitmap(
            size: PixelSize(width: 300, height: 200), painted: [(PixelRect(x: 40, y: 30, width: 90, height: 70), HomeScreenshot.colour(2))])
        try PNGEncoder.encode(source).write(to: folder.appendingPathComponent("scene.png"))

        let result = try CLIRunner.run(
            ["decode", "scene.png", "--size", "60x40", "--scale", "2", "--blur", "1.5", "--tint", "ffffff40", "-o", "out.png"], in: folder)
        XCTAssertEqual(result.status, 0, result.errors)
        let resized = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("scene.png").path),
                                              options: DecodingOptions(targetSize: PixelSize(width: 120, height: 80)))
        let context = ImageProcessingContext(scale: 2)
        let expected = try Tint.color(RGBAColor(red: 255, green: 255, blue: 255, alpha: 64))
            .process(try GaussianBlur(sigma: 1.5).process(resized, context: context), context: context)
        XCTAssertEqual(try decoded(folder.appendingPathComponent("out.png").path), expected.frames[0].bitmap)

        let cache = folder.appendingPathComponent("cache").path
        let fetch = { (extra: [String]) in
            try CLIRunner.run(["fetch", "scene.png", "--size", "120x80", "--format", "png", "--cache-dir", cache] + extra, in: folder)
        }
        let plain = try fetch([]), blurred = try fetch(["--blur", "3"]), again = try fetch(["--blur", "3"])
        for run in [plain, blurred, again] { XCTAssertEqual(run.status, 0, run.errors) }
        XCTAssertNotEqual(plain.output, blurred.output, "two variants, two files")
        XCTAssertEqual(blurred.output, again.output)
        let blurredPixels = try decoded(blurred.output.trimmingCharacters(in: .newlines))
        XCTAssertEqual(blurredPixels, try GaussianBlur(sigma: 3).process(resized, context: ImageProcessingContext()).frames[0].bitmap)
    }

    func testBadBlurAndTintValuesExitTwoWithOneLine() throws {
        let folder = try CLIRunner.temporaryFolder()
        try HomeScreenshot.png(try HomeScreenshot.bitmap(size: PixelSize(width: 30, height: 20), painted: []))
            .write(to: folder.appendingPathComponent("scene.png"))
        let blur = "--blur expects a sigma in points above 0 and at most 100, such as 10, got"
        let tint = "--tint expects light, dark, none or a colour RRGGBB or RRGGBBAA, got"
        var cases: [(arguments: [String], status: Int32, message: String)] = []
        for value in ["0", "-2", "101", "nan", "inf", "ten", ""] {
            cases.append((["scene.png", "--size", "10x10", "--blur", value], 2, "\(blur) '\(value)'"))
        }
        for value in ["purple", "12345", "#12345", "1234567890"] {
            cases.append((["scene.png", "--size", "10x10", "--tint", value], 2, "\(tint) '\(value)'"))
        }
        cases.append((["scene.png", "--size", "10x10", "--blur"], 2, "--blur needs a value"))
        try CLIRunner.assertFailures("decode", cases, in: folder)
        try CLIRunner.assertFailures("fetch", [(["scene.png", "--blur", "0"], 2, "\(blur) '0'")], in: folder)
        try CLIRunner.assertFailures(
            "slice", [(["scene.png", "--all", "--tint", "grey"], 2, "\(tint) 'grey'")], in: folder)
    }
}

private extension PixelRect {
    /// The middle of the rectangle, 20 pixels in from each side: a block whose edges the blur smooths.
    var insetForTest: PixelRect { PixelRect(x: x + 20, y: y + 20, width: width - 40, height: height - 40) }
}
