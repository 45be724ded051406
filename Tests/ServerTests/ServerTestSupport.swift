import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCacheServer
import Synchronization
import XCTest

/// Starts a server on 127.0.0.1 at a free port.
func startServer(_ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
                 handler: @escaping HTTPServer.Handler) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration()
    configuration.address = .loopback(port: 0)
    configure(&configuration)
    return try HTTPServer(configuration: configuration, handler: handler)
}

extension HTTPServer {
    func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://\(address)\(pathAndQuery)")!
    }
}

/// A URLSession of its own (so connections it keeps alive are not shared with other tests).
final class Client: Sendable {
    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpMaximumConnectionsPerHost = 100
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// The response to `method` on `url`, with `headers`.
    func send(_ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestFailure("not an HTTP response: \(response)") }
        return (data, http)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A door handlers wait at until the test opens it, recording who arrived, in order.
final class Gate: Sendable {
    private struct State {
        var open = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var arrived: [String] = []
        /// Arrivals already handed to `awaitArrivals`.
        var taken = 0
        var watchers: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []
    }

    private let state = Mutex(State())

    /// Records `name`'s arrival, then waits until the gate opens (cancellation does not wake it).
    func pass(_ name: String) async {
        await withCheckedContinuation { continuation in
            let (open, woken) = state.withLock { state in
                state.arrived.append(name)
                if !state.open { state.waiting.append(continuation) }
                return (state.open, Self.wake(&state))
            }
            for (names, watcher) in woken { watcher.resume(returning: names) }
            if open { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Waits for the next `count` arrivals (after those already returned) and returns their names.
    func awaitArrivals(_ count: Int) async -> [String] {
        await withCheckedContinuation { continuation in
            let woken = state.withLock { state in
                state.watchers.append((count, continuation))
                return Self.wake(&state)
            }
            for (names, watcher) in woken { watcher.resume(returning: names) }
        }
    }

    private static func wake(_ state: inout State) -> [([String], CheckedContinuation<[String], Never>)] {
        var woken: [([String], CheckedContinuation<[String], Never>)] = []
        while let first = state.watchers.first, state.arrived.count - state.taken >= first.count {
            state.watchers.removeFirst()
            woken.append((Array(state.arrived[state.taken..<state.taken + first.count]), first.continuation))
            state.taken += first.count
        }
        return woken
    }
}

/// Waits until `condition` holds, checking it every millisecond, for at most `seconds` (default
/// 60 s: a bound that only ends a broken run, so far beyond what a loaded machine takes).
func waitUntil(seconds: TimeInterval = 60, _ what: String, _ condition: () -> Bool) async throws {
    let end = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < end else { throw TestFailure("\(what) did not happen within \(seconds) s") }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// A path to a temporary file holding `bytes`, removed when the test ends.
func temporaryFile(_ bytes: [UInt8], testCase: XCTestCase) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-server-\(UUID().uuidString)")
    try Data(bytes).write(to: url)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url.path
}

/// Runs a script of Tests/Servers with python3, reading what it prints line by line.
final class PythonScript: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let input = Pipe()

    init(_ name: String, arguments: [String]) throws {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/\(name)")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        process.standardOutput = output
        process.standardInput = input
        try process.run()
    }

    /// The next line the script prints, or nil once it ended (read on a thread of its own).
    func nextLine() async -> String? {
        let handle = output.fileHandleForReading
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var line: [UInt8] = []
                while true {
                    let byte = handle.readData(ofLength: 1)
                    guard let first = byte.first else {
                        continuation.resume(returning: line.isEmpty ? nil : String(decoding: line, as: UTF8.self))
                        return
                    }
                    if first == UInt8(ascii: "\n") { break }
                    line.append(first)
                }
                continuation.resume(returning: String(decoding: line, as: UTF8.self))
            }
        }
    }

    /// Closes the script's standard input (it then ends) and waits for it.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
