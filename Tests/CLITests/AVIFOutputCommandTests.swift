import Foundation
import ImgCache
import TestSupport
import XCTest

/// AVIF written by the command line: `decode -o x.avif` and `fetch --format avif` (quality 63
/// unless `--quality` says otherwise, every frame kept, `--max-bytes` met), and HEIC refused
/// by name (exit 2), as its encoder is GPL.
final class AVIFOutputCommandTests: XCTestCase {
    private let harbour = CLIRunner.media.appendingPathComponent("harbour.jpg").path
    private let spinner = CLIRunner.media.appendingPathComponent("spinner.gif").path

    func testDecodeWritesAVIFAtImgproxysDefaultQualityAndKeepsTheFrames() throws {
        let folder = try CLIRunner.temporaryFolder()
        let still = try CLIRunner.run(["decode", harbour, "--size", "400x400", "-o", "harbour.avif"], in: folder)
        XCTAssertEqual(still.status, 0, still.errors)
        let data = try Data(contentsOf: folder.appendingPathComponent("harbour.avif"))
        XCTAssertTrue(still.output.contains("400x267 AVIF, 1 frame, \(data.count) bytes"), still.output)
        let pixels = try ImageDecoder.decode(.file(path: harbour), options: DecodingOptions(targetSize: PixelSize(width: 400, height: 400)))
        XCTAssertEqual(data, try AVIFEncoder.encode(pixels.frames[0].bitmap, quality: 63))
        let better = try CLIRunner.run(["decode", harbour, "--size", "400x400", "--quality", "90", "-o", "q90.avif"], in: folder)
        XCTAssertEqual(better.status, 0, better.errors)
        XCTAssertGreaterThan(try Data(contentsOf: folder.appendingPathComponent("q90.avif")).count, data.count)

        let animated = try CLIRunner.run(["decode", spinner, "--size", "120x120", "--max-frames", "6", "-o", "spin.avif"], in: folder)
        XCTAssertEqual(animated.status, 0, animated.errors)
        XCTAssertTrue(animated.output.contains("120x120 AVIF, 6 frames"), animated.output)
        let frames = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("spin.avif").path), options: DecodingOptions(maxFrames: 100))
        XCTAssertEqual(frames.info.format, .avif)
        XCTAssertEqual(frames.frames.count, 6)
    }

    func testMaxBytesLowersTheAVIFQualityAndExits14WhenNothingFits() throws {
        let folder = try CLIRunner.temporaryFolder()
        let full = try CLIRunner.run(["decode", harbour, "--size", "400x400", "-o", "full.avif"], in: folder)
        XCTAssertEqual(full.status, 0, full.errors)
        let cap = try Data(contentsOf: folder.appendingPathComponent("full.avif")).count * 2 / 3
        let capped = try CLIRunner.run(["decode", harbour, "--size", "400x400", "--max-bytes", "\(cap)", "-o", "capped.avif"], in: folder)
        XCTAssertEqual(capped.status, 0, capped.errors)
        XCTAssertLessThanOrEqual(try Data(contentsOf: folder.appendingPathComponent("capped.avif")).count, cap)
        let tiny = try CLIRunner.run(["decode", harbour, "--size", "400x400", "--max-bytes", "100", "-o", "tiny.avif"], in: folder)
        XCTAssertEqual(tiny.status, 14, tiny.errors)
        XCTAssertTrue(tiny.errors.contains("AVIF output is"), tiny.errors)
    }

    func testFetchStoresAnAVIFVariant() throws {
        let folder = try CLIRunner.temporaryFolder()
        let cache = folder.appendingPathComponent("cache").path
        let fetch = try CLIRunner.run(["fetch", harbour, "--size", "200x200", "--format", "avif", "--quality", "50", "--cache-dir", cache, "--json"])
        XCTAssertEqual(fetch.status, 0, fetch.errors)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(fetch.output.utf8)) as? [String: Any])
        XCTAssertEqual(report["format"] as? String, "avif")
        let path = try XCTUnwrap(report["path"] as? String)
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: path)).format, .avif)
    }

    func testHEICOutputIsRefusedNamingTheGPLEncoder() throws {
        let folder = try CLIRunner.temporaryFolder()
        for arguments in [["decode", harbour, "--size", "100x100", "-o", "x.heic"],
                          ["fetch", harbour, "--size", "100x100", "--format", "heic", "--cache-dir", folder.appendingPathComponent("c").path]] {
            let result = try CLIRunner.run(arguments, in: folder)
            XCTAssertEqual(result.status, 2, result.errors)
            XCTAssertTrue(result.errors.contains("HEIC is read, never written: its only encoder, x265, is GPL"), result.errors)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.heic").path))
    }
}
