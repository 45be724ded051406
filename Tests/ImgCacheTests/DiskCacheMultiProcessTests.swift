#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest
import ImgCache

final class DiskCacheMultiProcessTests: XCTestCase {
    /// 8 processes x 600 mixed operations on one folder with a 512 KB limit, so sweeps run often.
    func testEightProcessesSharingOneFolderNeverSeeALockErrorOrWrongBytes() throws {
        let root = try makeRoot()
        let workers = try (0..<8).map { worker in
            try WorkerProcess([
                "mixed", "--root", root.path, "--worker", "\(worker)", "--ops", "600", "--seed", "\(7919 * (worker + 1))",
                "--size-limit", "\(512 * 1024)",
            ])
        }
        var finals: [String: String] = [:]
        var counts: [String: Int] = [:]
        for (worker, process) in workers.enumerated() {
            let run = process.finish(timeout: 100)
            XCTAssertEqual(run.status, 0, "worker \(worker): \(run.errors)")
            XCTAssertEqual(run.errors, "", "worker \(worker) reported an error")
            for line in run.output.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.first == "final", fields.count == 3 { finals[String(fields[1])] = String(fields[2]) }
                if fields.first == "counts" {
                    for pair in fields.dropFirst() {
                        let parts = pair.split(separator: "=")
                        counts[String(parts[0]), default: 0] += Int(parts[1]) ?? 0
                    }
                }
            }
        }
        print("multi-process test: " + counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        XCTAssertEqual(counts["ops"], 8 * 600)
        XCTAssertGreaterThan(counts["puts", default: 0], 1500)
        XCTAssertGreaterThan(counts["hits", default: 0], 300)
        XCTAssertGreaterThan(counts["bytesStored", default: 0], 8 * 512 * 1024, "far more was stored than the limit holds")

        let cache = try DiskCache(configuration: .init(root: root, syncWrites: false))
        let report = try cache.verify()
        XCTAssertTrue(report.isConsistent, "\(report)")
        XCTAssertEqual(report.staleTemporaryFiles, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("tmp").path), [])
        let stats = try cache.stats()
        XCTAssertLessThanOrEqual(stats.totalBytes, 512 * 1024, "the last sweep left the folder within its limit")

        // Every entry reads back byte for byte as one complete version of its own key, and a
        // worker's own key holds the last version it stored, or is gone only if it removed it or a
        // sweep evicted it.
        let check = try WorkerProcess(["check", "--root", root.path]).finish(timeout: 60)
        XCTAssertEqual(check.status, 0, check.errors)
        let stored = check.output.split(separator: "\n").reduce(into: [String: String]()) { versions, line in
            let fields = line.split(separator: " ")
            if fields.count == 3, fields[0] == "entry" { versions[String(fields[1])] = String(fields[2]) }
        }
        XCTAssertEqual(stored.count, stats.entryCount)
        var survivors = 0
        for (key, version) in finals {
            if version == "removed" {
                XCTAssertNil(stored[key], "\(key) was removed last but is stored")
            } else if let found = stored[key] {
                XCTAssertEqual(found, version, key)
                survivors += 1
            }
        }
        XCTAssertGreaterThan(survivors, 0)
    }
}

/// A `cache-worker` process (built next to the test bundle) with its output captured. A watchdog
/// kills it when it outlives its time-out, so a hung worker fails the test instead of blocking it.
final class WorkerProcess {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    static var binary: URL { Bundle.main.bundleURL.appendingPathComponent("cache-worker") }

    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = Self.binary
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Reads standard output until a line equal to `line` arrives; false on end of output or time-out.
    func waitForLine(_ line: String, timeout: TimeInterval) -> Bool {
        let watchdog = startWatchdog(timeout)
        defer { watchdog.cancel() }
        var received = Data()
        while !received.split(separator: 0x0A).contains(where: { $0.elementsEqual(line.utf8) }) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return false }
            received.append(chunk)
        }
        return true
    }

    /// Waits for the process to exit (killing it after `timeout` seconds) and returns what it printed.
    func finish(timeout: TimeInterval) -> Run {
        let watchdog = startWatchdog(timeout)
        defer { watchdog.cancel() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// Kills the process with SIGKILL and reaps it.
    func kill() {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private func startWatchdog(_ timeout: TimeInterval) -> DispatchWorkItem {
        let pid = process.processIdentifier
        let item = DispatchWorkItem { _ = Glibc.kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: item)
        return item
    }
}
