import Dispatch
import Foundation

/// Runs an executable the package builds (`imgcache`, `feed-widget`...), found beside the test
/// bundle, or a tool on the PATH (`cwebp`, `python3`, `redis-cli`...), and captures what it prints
/// and how it ended. A run that passes `timeout` (default 120 s: it only ends a run that hangs,
/// so it is far beyond what a loaded machine takes) is terminated (and so reported as killed by a
/// signal).
public enum ProductRunner {
    public struct Result {
        public let status: Int32
        public let output: String
        public let errors: String
        /// True when a signal ended the run (a crash, or the time-out's termination).
        public let killedBySignal: Bool
    }

    /// Runs the package's `executable` with `arguments` in `directory` (default: the current one),
    /// with `environment` added to the test's.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 120
    ) throws -> Result {
        try run(
            Bundle.main.bundleURL.appendingPathComponent(executable), arguments, in: directory, environment: environment,
            timeout: timeout)
    }

    /// Runs `tool`, found on the PATH, with `arguments` in `directory` (default: the current one).
    public static func runTool(
        _ tool: String, _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 120
    ) throws -> Result {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, in: directory, timeout: timeout)
    }

    private static func run(
        _ executableURL: URL, _ arguments: [String], in directory: URL?, environment: [String: String] = [:],
        timeout: TimeInterval
    ) throws -> Result {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
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
