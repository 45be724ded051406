import Foundation
import ImgCache
import TestSupport
import XCTest

/// `imgcache prefetch -` reads its list as it goes: each URL written to its standard input comes
/// out in the JSON items before the next is written, and the summary keeps the counts.
final class PrefetchStreamCommandTests: XCTestCase {
    func testPrefetchReadsStandardInputAsItGoesCountsFailuresAndRefusesALongLine() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = try (0..<4).map { index -> String in
            let file = folder.appendingPathComponent("image\(index).png")
            let pixels = (0..<16 * 16 * 4).map { UInt8(truncatingIfNeeded: $0 * (index + 3)) }
            try PNGEncoder.encode(try Bitmap(size: PixelSize(width: 16, height: 16), pixels: pixels)).write(to: file)
            return file.path
        }
        let process = Process()
        process.executableURL = Bundle.main.bundleURL.appendingPathComponent("imgcache")
        process.arguments = ["prefetch", "-", "--size", "8x8", "--json", "--cache-dir", folder.appendingPathComponent("cache").path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: deadline)
        defer { deadline.cancel() }
        var printed = Data()
        /// Reads standard output until it holds `count` items (or ends).
        func readItems(_ count: Int) -> Int {
            while items(in: printed) < count {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                printed += chunk
            }
            return items(in: printed)
        }
        for (index, image) in images.enumerated() {
            // The next line is written only once the one before it has been prefetched.
            input.fileHandleForWriting.write(Data("# image \(index)\n\n\(image)\n".utf8))
            XCTAssertEqual(readItems(index + 1), index + 1, String(decoding: printed, as: UTF8.self))
        }
        let missing = folder.appendingPathComponent("missing.png").path
        input.fileHandleForWriting.write(Data((missing + "\n" + String(repeating: "x", count: 70_000) + "\n" + images[0]).utf8))
        try input.fileHandleForWriting.close()
        printed += output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, stderr)
        XCTAssertEqual(process.terminationStatus, 11, stderr)
        XCTAssertTrue(stderr.contains("2 of 7 URLs failed"), stderr)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: printed) as? [String: Any])
        XCTAssertEqual(summary["total"] as? Int, 7)
        XCTAssertEqual(summary["failed"] as? Int, 2)
        XCTAssertEqual(summary["network"] as? Int, 4)
        XCTAssertEqual(summary["cached"] as? Int, 1)
        let listed = try XCTUnwrap(summary["items"] as? [[String: Any]])
        XCTAssertEqual(listed.count, 7)
        XCTAssertEqual(listed.compactMap { $0["error"] as? String }.sorted(), [
            "\(missing): cannot open: No such file or directory", "longer than 65536 bytes, not read",
        ])
        XCTAssertEqual(listed.filter { $0["error"] != nil }.compactMap { $0["url"] as? String }.sorted(), [missing, "line 14"])
        XCTAssertEqual(Set(listed.compactMap { ($0["pixels"] as? [String: Int])?["width"] }), [8])
    }

    func testTheTextSummaryListsAtMostAHundredFailuresAndCountsTheRest() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("urls.txt")
        try (0..<130).map { folder.appendingPathComponent("missing\($0).png").path }.joined(separator: "\n")
            .write(to: list, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["prefetch", list.path, "--size", "8x8", "--cache-dir", folder.appendingPathComponent("cache").path])
        XCTAssertEqual(result.status, 11, result.errors)
        let lines = result.output.split(separator: "\n")
        XCTAssertEqual(lines.first, "prefetched 0 of 130: 0 from the network, 0 revalidated, 0 already cached, 130 failed")
        XCTAssertEqual(lines.filter { $0.hasPrefix("  failed ") }.count, 100)
        XCTAssertEqual(lines.last, "  ... and 30 more failed")
    }

    private func items(in printed: Data) -> Int {
        String(decoding: printed, as: UTF8.self).components(separatedBy: "\"url\":").count - 1
    }
}
