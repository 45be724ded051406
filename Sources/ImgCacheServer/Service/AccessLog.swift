import Foundation
import Synchronization

/// One JSON object a line for every request: time (RFC 3339, UTC, milliseconds), method, path
/// without its signature, status, bytes sent, milliseconds, and cache outcome when there is one.
final class AccessLog: Sendable {
    private let output: Mutex<FileHandle>

    /// Appends to the file at `path`, created when missing; `-` writes to standard output.
    init(path: String) throws {
        if path == "-" {
            output = Mutex(FileHandle.standardOutput)
            return
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]) else {
                throw AccessLogError(path: path)
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw AccessLogError(path: path) }
        handle.seekToEndOfFile()
        output = Mutex(handle)
    }

    /// The line of one request (`path` as sent: its first segment, the signature, is left out).
    func record(method: String, path: String, status: Int, bytes: Int, milliseconds: Double, outcome: String?) {
        var entry: [String: Any] = [
            "time": Self.timestamp(Date()), "method": method, "path": Self.withoutSignature(path), "status": status,
            "bytes": bytes, "ms": (milliseconds * 1000).rounded() / 1000,
        ]
        if let outcome { entry["cache"] = outcome }
        guard var line = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(0x0A)
        output.withLock { try? $0.write(contentsOf: line) }
    }

    /// `path` without its first segment (an image URL's signature); other paths as they are.
    static func withoutSignature(_ path: String) -> String {
        let segments = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard segments.count == 2, segments[0].isEmpty else { return path }
        let rest = segments[1]
        guard let slash = rest.firstIndex(of: "/") else { return path }
        return String(rest[slash...])
    }

    private static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }
}

/// The access log's file cannot be opened for appending.
struct AccessLogError: Error, CustomStringConvertible {
    let path: String
    var description: String { "cannot open the access log \(path) for appending" }
}
