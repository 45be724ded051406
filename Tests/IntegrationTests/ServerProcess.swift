import Foundation
import XCTest

/// A server the tests start as a child process, stopped (and waited for) when the test ends.
final class ServerProcess {
    let process = Process()
    let folder: URL

    /// Starts `executable` with `arguments`, logging its output in `folder`, which it removes when
    /// it stops (or fails to start).
    init(executable: String, arguments: [String], folder: URL) throws {
        self.folder = folder
        do {
            guard FileManager.default.isExecutableFile(atPath: executable) else {
                throw ServerError("\(executable) is not installed (CI installs it with apt-get; see .ci/run)")
            }
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let log = folder.appendingPathComponent("server.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Kills the server (SIGKILL: children of a test inherit a signal mask that blocks SIGTERM).
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Polls `ready` every 20 ms for up to `seconds` (default 60, a bound that only ends a broken
    /// run); fails with the server's log when it never holds.
    func wait(seconds: TimeInterval = 60, until ready: () -> Bool) throws {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if ready() { return }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        throw ServerError("\(process.executableURL?.path ?? "server") did not become ready within \(seconds) s: \(log)")
    }

    static func temporaryFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
