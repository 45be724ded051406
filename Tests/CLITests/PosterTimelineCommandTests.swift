import Foundation
import ImgCache
import TestSupport
import XCTest

/// `--poster` and `--timeline-entries` (with `--extension`, `--fit-budget`) on `decode` and `fetch`.
final class PosterTimelineCommandTests: XCTestCase {
    /// A 200x200 GIF of 300 frames: frame 0 wholly transparent, then a 50x50 white square moving
    /// across a transparent canvas.
    private func blankFirstGIF(in folder: URL) throws -> String {
        let size = PixelSize(width: 200, height: 200)
        let encoder = try GIFEncoder(size: size, loopCount: 0)
        try encoder.add(ImageFrame(bitmap: try Bitmap(size: size, pixels: [UInt8](repeating: 0, count: size.area * 4)), delayCentiseconds: 4))
        for index in 1..<300 {
            var pixels = [UInt8](repeating: 0, count: size.area * 4)
            let left = index * 3 % 150
            for y in 75..<125 {
                for x in left..<(left + 50) { pixels.replaceSubrange((y * 200 + x) * 4..<(y * 200 + x) * 4 + 4, with: [255, 255, 255, 255]) }
            }
            try encoder.add(ImageFrame(bitmap: try Bitmap(size: size, pixels: pixels), delayCentiseconds: 4))
        }
        let url = folder.appendingPathComponent("blank-first.gif")
        try encoder.finish().write(to: url)
        return url.path
    }

    func testPosterSkipsTheBlankFirstFrameAndSaysWhichItKept() throws {
        let folder = try CLIRunner.temporaryFolder()
        let gif = try blankFirstGIF(in: folder)
        let result = try CLIRunner.run(["decode", gif, "--size", "200x200", "--max-frames", "300", "--poster", "-o", "poster.png"], in: folder)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("200x200 PNG, 1 frame"), result.output)
        XCTAssertTrue(result.output.contains("poster frame 1 of 5 decoded"), result.output)
        let pixels = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("poster.png").path)).frames[0].bitmap.pixels
        let inside = (100 * 200 + 10) * 4, beside = (100 * 200 + 60) * 4
        XCTAssertEqual(Array(pixels[inside..<inside + 4]), [255, 255, 255, 255])
        XCTAssertEqual(pixels[beside + 3], 0)
    }

    /// 8 entries of the 300-frame GIF: 16 frames of 160,000 bytes each, 20,480,000 bytes in all
    /// with 10 MB reserved under 30 MB; the file written holds exactly those frames.
    func testEightTimelineEntriesOfThe300FrameGIFFitIn30MB() throws {
        let folder = try CLIRunner.temporaryFolder()
        let gif = try blankFirstGIF(in: folder)
        let result = try CLIRunner.run(
            ["decode", gif, "--size", "200x200", "--max-frames", "300", "--timeline-entries", "8", "-o", "timeline.gif"], in: folder)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("200x200 GIF, 16 frames"), result.output)
        XCTAssertTrue(result.output.contains(
            "timeline: 8 entries x 2560000 bytes = 20480000 of 31457280 bytes (widgetkit, 10485760 reserved)"), result.output)
        let written = try ImageDecoder.decode(
            .file(path: folder.appendingPathComponent("timeline.gif").path), options: DecodingOptions(maxFrames: 300, frameBudgetBytes: 64 << 20))
        XCTAssertEqual(written.byteCount * 8 + (10 << 20), 20_480_000 + 10_485_760)
        XCTAssertLessThan(written.byteCount * 8 + (10 << 20), 30 << 20)
    }

    func testAnImageOverItsEntryIsRefusedWithExit15UnlessFitted() throws {
        let folder = try CLIRunner.temporaryFolder()
        let harbour = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        let refused = try CLIRunner.run(["decode", harbour, "--size", "1032x1098", "--mode", "crop", "--timeline-entries", "8"], in: folder)
        XCTAssertEqual(refused.status, 15, refused.errors)
        XCTAssertTrue(refused.errors.contains("a 1032x1098 frame takes 4532544 bytes, over the 2621440 bytes each of 8 timeline entries"), refused.errors)
        for mode in ["crop", "pad"] {
            let fitted = try CLIRunner.run(
                ["decode", harbour, "--size", "1032x1098", "--mode", mode, "--timeline-entries", "8", "--fit-budget", "-o", "\(mode).png"], in: folder)
            XCTAssertEqual(fitted.status, 0, fitted.errors)
            XCTAssertTrue(fitted.output.contains("784x834 PNG"), fitted.output)
        }
        let today = try CLIRunner.run(
            ["decode", harbour, "--size", "1032x1098", "--timeline-entries", "3", "--extension", "today", "-o", "today.png"], in: folder)
        XCTAssertEqual(today.status, 15, today.errors)
        try CLIRunner.assertFailures("decode", [
            ([harbour, "--size", "100x100", "--fit-budget"], 2, "--extension and --fit-budget need --timeline-entries"),
            ([harbour, "--size", "100x100", "--timeline-entries", "0"], 2, "--timeline-entries"),
            ([harbour, "--size", "100x100", "--timeline-entries", "2", "--extension", "watch"], 2, "--extension"),
        ], in: folder)
    }

    func testFetchReportsTheEntryAndTotalBytesAgainstTheLimit() throws {
        let folder = try CLIRunner.temporaryFolder()
        let harbour = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        let result = try CLIRunner.run([
            "fetch", harbour, "--size", "1032x1098", "--mode", "crop", "--timeline-entries", "8", "--fit-budget", "--json",
            "--cache-dir", folder.appendingPathComponent("cache").path,
        ], in: folder)
        XCTAssertEqual(result.status, 0, result.errors)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        XCTAssertEqual(object["pixels"] as? [String: Int], ["width": 784, "height": 834])
        let timeline = try XCTUnwrap(object["timeline"] as? [String: Any])
        XCTAssertEqual(timeline["bytes_per_entry"] as? Int, 784 * 834 * 4)
        XCTAssertEqual(timeline["total_bytes"] as? Int, 784 * 834 * 4 * 8)
        XCTAssertEqual(timeline["entry_budget_bytes"] as? Int, 2_621_440)
        XCTAssertEqual(timeline["limit_bytes"] as? Int, 31_457_280)
        XCTAssertEqual(timeline["reserve_bytes"] as? Int, 10_485_760)
        XCTAssertEqual(timeline["fits"] as? Bool, true)
    }

    func testFetchReportsThePosterFrameWhenItDecodes() throws {
        let folder = try CLIRunner.temporaryFolder()
        let gif = try blankFirstGIF(in: folder)
        let arguments = ["fetch", gif, "--size", "100x100", "--poster", "--json", "--cache-dir", folder.appendingPathComponent("cache").path]
        let first = try CLIRunner.run(arguments, in: folder)
        XCTAssertEqual(first.status, 0, first.errors)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(first.output.utf8)) as? [String: Any])
        XCTAssertEqual(object["poster_frame"] as? Int, 1)
        XCTAssertEqual(object["frames"] as? Int, 1)
        XCTAssertEqual(object["format"] as? String, "png")
        // From the cache nothing is decoded, so nothing is said of the source.
        let again = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try CLIRunner.run(arguments, in: folder).output.utf8)) as? [String: Any])
        XCTAssertNil(again["poster_frame"])
        XCTAssertEqual(again["cache"] as? String, "disk")
    }
}
