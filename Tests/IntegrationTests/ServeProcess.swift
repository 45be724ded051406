import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport
import XCTest

/// `imgcache serve` as a child process on 127.0.0.1 at a port it picks (`--listen 127.0.0.1:0`),
/// read from its standard error line "listening on http://ADDR"; stopped with SIGTERM by the
/// tests that test stopping, and killed (SIGKILL) when a test ends.
///
/// Every serve command line of the tests is made by `commandLine(_:cacheFolder:)`, the one place
/// that adds `--allow-private-sources` (the tests' origins are on 127.0.0.1) once
/// `imgcache serve --help` lists it.
final class ServeProcess: @unchecked Sendable {
    /// The key and salt the tests sign with, hex, as `IMGCACHE_KEY` and `IMGCACHE_SALT` hold them.
    static let keyHex = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let saltHex = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"

    let process = Process()
    /// The port it listens on.
    let port: Int
    /// The cache folder (`--cache-dir`), removed by `stop()` when the process made it.
    let cacheFolder: URL
    private let ownsCacheFolder: Bool
    private let errors: StreamCollector
    private let output: StreamCollector

    /// Starts `imgcache serve` with `arguments` after those `commandLine` gives, signed with the
    /// tests' key unless `signed` is false (then `--allow-unsigned` is the caller's to pass),
    /// with the cache in `cacheFolder` (default a new temporary folder) and `environment` added
    /// to the test's (every `IMGCACHE_` variable of the test's own left out), sources on this
    /// machine's addresses allowed unless `allowsPrivateSources` is false; waits (up to 60 s) for
    /// the "listening" line.
    init(
        _ arguments: [String] = [], signed: Bool = true, cacheFolder: URL? = nil, environment: [String: String] = [:],
        allowsPrivateSources: Bool = true
    ) throws {
        if let cacheFolder {
            self.cacheFolder = cacheFolder
            ownsCacheFolder = false
        } else {
            self.cacheFolder = try ServerProcess.temporaryFolder("imgcache-serve-cache")
            ownsCacheFolder = true
        }
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("IMGCACHE_") }
        if signed {
            variables["IMGCACHE_KEY"] = Self.keyHex
            variables["IMGCACHE_SALT"] = Self.saltHex
        }
        variables.merge(environment) { $1 }
        process.executableURL = Self.executable
        process.arguments = try Self.commandLine(arguments, cacheFolder: self.cacheFolder, allowsPrivateSources: allowsPrivateSources)
        process.environment = variables
        let outputPipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        output = StreamCollector(outputPipe.fileHandleForReading)
        errors = StreamCollector(errorPipe.fileHandleForReading)
        try process.run()
        output.start()
        errors.start()
        guard let line = errors.waitForLine(containing: "listening on http://", seconds: 60),
              let address = line.components(separatedBy: "listening on http://").last?.split(separator: " ").first,
              let port = address.split(separator: ":").last.flatMap({ Int($0) })
        else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            if ownsCacheFolder { try? FileManager.default.removeItem(at: self.cacheFolder) }
            throw ServerError("imgcache serve \(process.arguments ?? []) did not say where it listens within 60 s: \(errors.text)")
        }
        self.port = port
    }

    /// The built `imgcache`, beside the test bundle.
    static var executable: URL { Bundle.main.bundleURL.appendingPathComponent("imgcache") }

    /// `serve --listen 127.0.0.1:0 --cache-dir FOLDER`, then `--allow-private-sources` when
    /// `allowsPrivateSources` (default true: the tests' origins are on 127.0.0.1), then `arguments`.
    static func commandLine(_ arguments: [String], cacheFolder: URL, allowsPrivateSources: Bool = true) throws -> [String] {
        var line = ["serve", "--listen", "127.0.0.1:0", "--cache-dir", cacheFolder.path]
        if allowsPrivateSources { line.append("--allow-private-sources") }
        // A test that does not time its requests gives them 120 s rather than the default 30: a
        // store's fsync has waited over 30 s for the disk of a busy shared machine.
        if !arguments.contains("--request-timeout") { line += ["--request-timeout", "120"] }
        return line + arguments
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// What the process wrote on standard error so far.
    var standardError: String { errors.text }

    /// What the process wrote on standard output so far (the access log with `--access-log -`).
    var standardOutput: String { output.text }

    /// Waits (up to `seconds`) for `count` lines on standard output; all its lines then.
    func waitForOutputLines(_ count: Int, seconds: TimeInterval = 5) -> [String] {
        output.waitForLines(count, seconds: seconds)
    }

    /// Waits (up to `seconds`) for a line of standard error holding `text`.
    func waitForErrorLine(containing text: String, seconds: TimeInterval = 10) -> String? {
        errors.waitForLine(containing: text, seconds: seconds)
    }

    /// Sends SIGTERM.
    func terminate() {
        kill(process.processIdentifier, SIGTERM)
    }

    /// Waits (up to `seconds`) for the process to exit; its exit status, or nil when it still runs.
    func waitForExit(seconds: TimeInterval) -> Int32? {
        guard errors.waitForEnd(seconds: seconds) else { return nil }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// Kills the process (SIGKILL) if it still runs, waits for it, and removes the cache folder
    /// when it made it.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        if ownsCacheFolder { try? FileManager.default.removeItem(at: cacheFolder) }
    }
}

/// Everything a pipe delivers, read on a thread of its own, with waits for a line and for the end.
final class StreamCollector: @unchecked Sendable {
    private let handle: FileHandle
    private let condition = NSCondition()
    private var data = Data()
    private var ended = false

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    func start() {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty { ended = true } else { data.append(chunk) }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
        thread.start()
    }

    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// The first whole line holding `text`, waiting up to `seconds` for it; nil when none came.
    func waitForLine(containing text: String, seconds: TimeInterval) -> String? {
        let end = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            if let line = lines.first(where: { $0.contains(text) }) { return String(line) }
            if ended || !condition.wait(until: end) { return nil }
        }
    }

    /// The whole lines so far once there are `count` of them, waiting up to `seconds`.
    func waitForLines(_ count: Int, seconds: TimeInterval) -> [String] {
        let end = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            if lines.count >= count || ended || !condition.wait(until: end) { return lines.map(String.init) }
        }
    }

    /// Waits up to `seconds` for the writer to close the pipe (the process to exit); true when it did.
    func waitForEnd(seconds: TimeInterval) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !ended {
            if !condition.wait(until: end) { return ended }
        }
        return true
    }
}
