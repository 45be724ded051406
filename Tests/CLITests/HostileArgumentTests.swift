import Foundation
import ImgCache
import XCTest

/// Numbers a user types are checked before use: every hostile argument is a one-line error with a
/// documented exit code, quickly, never a signal or a huge allocation.
final class HostileArgumentTests: XCTestCase {
    func testHostileNumbersAreRefusedBeforeAnyWork() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let badge = CLIRunner.media.appendingPathComponent("badge.png").path
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            ([badge, "--size", "10x10", "--scale", "inf", "-o", "a.png"], 2, "--scale expects"),
            ([badge, "--size", "10x10", "--scale", "nan", "-o", "a.png"], 2, "--scale expects"),
            ([badge, "--size", "10x10", "--scale", "0", "-o", "a.png"], 2, "--scale expects"),
            ([badge, "--size", "5000x5000", "--scale", "16", "-o", "a.png"], 2, "at most 65535 a side"),
            ([badge, "--upscale", "--size", "100000x100000", "-o", "b.png"], 2, "at most 65535 a side"),
            ([badge, "--upscale", "--size", "20000x20000", "-o", "c.png"], 5, "over the limit of 16777216 pixels"),
            ([badge, "--size", "99999999999999999999x9", "-o", "d.png"], 2, "--size expects"),
            ([badge, "--size", "10x10", "--max-frames", "0"], 2, "--max-frames expects"),
            ([badge, "--size", "10x10", "--max-frames", "99999999999"], 2, "--max-frames expects"),
            ([badge, "--size", "10x10", "--budget", "1GB"], 2, "--budget expects"),
            ([badge, "--size", "10x10", "--budget", "nan"], 2, "--budget expects"),
            ([badge, "--size", "10x10", "--budget", "-1"], 2, "--budget expects"),
            ([badge, "--size", "10x10", "--quality", "0", "-o", "e.jpg"], 2, "quality 0"),
            ([badge, "--size", "10x10", "--quality", "1000", "-o", "e.jpg"], 2, "quality 1000"),
        ]
        let started = Date()
        try CLIRunner.assertFailures("decode", cases, in: folder)
        // About 0.1 s a run on an idle machine, 1 s under load; a decode of 400 megapixels takes far longer.
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "each refusal comes before any work")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing was written")
    }
}
