import Foundation
import XCTest

/// One `imgcache prefetch ... --json` running in its own process, for the tests that start
/// several at once (a fleet sharing one Redis).
struct PrefetchProcess {
    let process = Process()
    let output = Pipe(), errors = Pipe()

    /// Starts `imgcache` with `arguments` (`prefetch` and its options).
    init(_ arguments: [String]) throws {
        process.executableURL = Bundle.main.bundleURL.appendingPathComponent("imgcache")
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Waits (at most 120 s, then kills) for the process, which must exit 0, and returns its JSON
    /// summary and what it wrote on standard error.
    func finish(file: StaticString = #filePath, line: UInt = #line) throws -> (summary: [String: Any], errors: String) {
        let deadline = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: deadline)
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: self.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        deadline.cancel()
        XCTAssertEqual(process.terminationReason, .exit, errors, file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, errors, file: file, line: line)
        return (try CommandRunner.json(String(decoding: printed, as: UTF8.self)), errors)
    }
}
