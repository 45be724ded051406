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

    /// The line of one response (its path as sent, without its first segment, the signature, and
    /// without its query; the cache outcome from the response's note).
    func record(_ record: HTTPServer.ResponseRecord) {
        let path = String(record.target.prefix { $0 != "?" })
        var entry: [String: Any] = [
            "time": Self.timestamp(Date()), "method": record.method, "path": Self.withoutSignature(path),
            "status": record.status, "bytes": record.status == 304 ? 0 : record.bodyBytes,
            "ms": (record.seconds * 1_000_000).rounded() / 1000,
        ]
        if let outcome = record.note { entry["cache"] = outcome }
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
