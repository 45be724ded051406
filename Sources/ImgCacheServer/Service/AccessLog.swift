import Foundation
import Glibc
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
    /// without its query; the cache outcome from the response's note): keys in order, written
    /// here rather than by `JSONSerialization` (a tenth of the cost, on the server's thread).
    func record(_ record: HTTPServer.ResponseRecord) {
        let target = record.target
        let path = Self.withoutSignature(String(target[..<(target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)]))
        let microseconds = record.seconds.isFinite ? Int(max(0, min(record.seconds, 1e9) * 1_000_000).rounded()) : 0
        var line = "{\"bytes\":\(record.status == 304 ? 0 : record.bodyBytes)"
        if let outcome = record.note { line += ",\"cache\":\(Self.quoted(outcome))" }
        line += ",\"method\":\(Self.quoted(record.method)),\"ms\":\(Self.decimal(microseconds, places: 3))"
        line += ",\"path\":\(Self.quoted(path)),\"status\":\(record.status),\"time\":\"\(Self.timestamp())\"}\n"
        let bytes = Data(line.utf8)
        output.withLock { try? $0.write(contentsOf: bytes) }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20:
                quoted += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// `value` / 10^`places` with exactly `places` decimals ("0.011" for 11 and 3).
    private static func decimal(_ value: Int, places: Int) -> String {
        var divisor = 1
        for _ in 0..<places { divisor *= 10 }
        let fraction = String(value % divisor)
        return "\(value / divisor)." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// `path` without its first segment (an image URL's signature); other paths as they are.
    static func withoutSignature(_ path: String) -> String {
        let segments = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard segments.count == 2, segments[0].isEmpty else { return path }
        let rest = segments[1]
        guard let slash = rest.firstIndex(of: "/") else { return path }
        return String(rest[slash...])
    }

    /// Now as RFC 3339 in UTC with milliseconds: "2026-12-02T02:26:10.693Z".
    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2) + "T"
            + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2) + ":" + padded(parts.tm_sec, 2) + "."
            + padded(Int32(now.tv_nsec / 1_000_000), 3) + "Z"
    }
}

/// The access log's file cannot be opened for appending.
struct AccessLogError: Error, CustomStringConvertible {
    let path: String
    var description: String { "cannot open the access log \(path) for appending" }
}
