import Foundation
import XCTest

/// Runs a built executable of the package (`imgcache`, `feed-widget`) with a time-out.
enum CommandRunner {
    struct Result {
        let status: Int32
        let output: String
        let errors: String
    }

    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 60) throws -> Result {
        let process = Process()
        process.executableURL = Bundle.main.bundleURL.appendingPathComponent(executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: .now() + timeout)
        timer.setEventHandler { if process.isRunning { process.terminate() } }
        timer.resume()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        XCTAssertNotEqual(process.terminationReason, .uncaughtSignal, "\(executable) \(arguments) was killed or crashed")
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// Parses `text` as one JSON object.
    static func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }
}
