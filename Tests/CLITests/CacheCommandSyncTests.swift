import Foundation
import TestSupport
import XCTest

/// What `imgcache` flushes to disk, counted with strace: a disk hit and the verbs that only read
/// sync nothing; a store and `cache prune` do.
final class CacheCommandSyncTests: XCTestCase {
    /// `imgcache arguments` run under strace, with its fsync and fdatasync calls counted (its
    /// threads included).
    private func traced(
        _ arguments: [String], in folder: URL, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (syncs: Int, result: ProductRunner.Result) {
        let log = folder.appendingPathComponent("strace-\(UUID().uuidString).txt")
        let imgcache = Bundle.main.bundleURL.appendingPathComponent("imgcache").path
        let result = try ProductRunner.runTool(
            "strace", ["-f", "-qq", "-e", "trace=fsync,fdatasync", "-o", log.path, imgcache] + arguments)
        XCTAssertEqual(result.status, 0, "imgcache \(arguments.joined(separator: " ")): \(result.errors)", file: file, line: line)
        let calls = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter {
            $0.contains("fsync(") || $0.contains("fdatasync(")
        }
        return (calls.count, result)
    }

    private func fields(_ result: ProductRunner.Result) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], result.output)
    }

    func testADiskHitAndTheReadOnlyVerbsSyncNothing() throws {
        let version = try ProductRunner.runTool("strace", ["-V"])
        guard version.status == 0 else {
            return XCTFail("strace is missing (make setup installs it): \(version.errors)")
        }
        let folder = try CLIRunner.temporaryFolder()
        let cache = folder.appendingPathComponent("cache").path
        let gif = CLIRunner.media.appendingPathComponent("spinner.gif")
        let fetch = ["fetch", gif.path, "--size", "64x64", "--max-frames", "8", "--json", "--cache-dir", cache]

        let stored = try traced(fetch, in: folder)
        XCTAssertEqual(try fields(stored.result)["cache"] as? String, "network")
        XCTAssertGreaterThan(stored.syncs, 0, "a store flushes its file")

        for round in 1...2 {
            let hit = try traced(fetch, in: folder)
            let report = try fields(hit.result)
            XCTAssertEqual(report["cache"] as? String, "disk", "round \(round)")
            XCTAssertEqual(report["frames"] as? Int, 8, "round \(round)")
            XCTAssertEqual(hit.syncs, 0, "round \(round): a hit syncs nothing")
        }
        let path = try traced(["cache", "path", gif.absoluteString, "--cache-dir", cache], in: folder)
        XCTAssertTrue(path.result.output.hasPrefix(cache + "/data/"), path.result.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path.result.output.trimmingCharacters(in: .newlines)))
        XCTAssertEqual(path.syncs, 0, "cache path syncs nothing")
        for verb in ["stats", "ls", "verify"] {
            let run = try traced(["cache", verb, "--cache-dir", cache], in: folder)
            XCTAssertEqual(run.syncs, 0, "cache \(verb) syncs nothing")
        }
        XCTAssertTrue(try traced(["cache", "ls", "--cache-dir", cache], in: folder).result.output.contains(" variant "))

        let prune = try traced(["cache", "prune", "--cache-dir", cache], in: folder)
        XCTAssertGreaterThan(prune.syncs, 0, "prune checkpoints the WAL")
        let afterPrune = try traced(fetch, in: folder)
        XCTAssertEqual(try fields(afterPrune.result)["cache"] as? String, "disk")
        XCTAssertEqual(afterPrune.syncs, 0, "prune left the WAL so that the next hit starts none")
    }
}
