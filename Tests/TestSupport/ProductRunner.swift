import Dispatch
import Foundation

/// Runs an executable the package builds (`imgcache`, `feed-widget`...), found beside the test
/// bundle, and captures what it prints and how it ended. A run that passes `timeout` is terminated
/// (and so reported as killed by a signal).
public enum ProductRunner {
    public struct Result {
        public let status: Int32
        public let output: String
        public let errors: String
        /// True when a signal ended the run (a crash, or the time-out's termination).
        public let killedBySignal: Bool
    }

    public static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 60
    ) throws -> Result {
        let process = Process()
        process.executableURL = Bundle.main.bundleURL.appendingPathComponent(executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
        // Reading to the end returns once the process closes its pipes: on exit, or when the
        // time-out terminates it.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        deadline.cancel()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self),
            killedBySignal: process.terminationReason == .uncaughtSignal)
    }
}
