import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Debian's nginx in the foreground with a temporary prefix and configuration
/// (`Tests/Servers/nginx.conf.template`), serving `<prefix>/www` on 127.0.0.1.
final class NginxServer {
    static let executable = "/usr/sbin/nginx"
    let server: ServerProcess
    let port: Int
    var prefix: URL { server.folder }
    var root: URL { prefix.appendingPathComponent("www") }

    init() throws {
        let prefix = try ServerProcess.temporaryFolder("imgcache-nginx")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("www"), withIntermediateDirectories: true)
        let port = try Self.freePort()
        let template = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/nginx.conf.template")
        let configuration = try String(contentsOf: template, encoding: .utf8)
            .replacingOccurrences(of: "@PREFIX@", with: prefix.path)
            .replacingOccurrences(of: "@PORT@", with: String(port))
        let configurationFile = prefix.appendingPathComponent("nginx.conf")
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
        server = try ServerProcess(
            executable: Self.executable,
            arguments: ["-p", prefix.path, "-c", configurationFile.path, "-e", prefix.appendingPathComponent("error.log").path],
            folder: prefix)
        self.port = port
        do {
            try server.wait { Self.accepts(port: port) }
        } catch {
            let log = (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            server.stop()
            throw ServerError("\(error) \(log)")
        }
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// One line of the access log.
    struct Request: Equatable {
        var method: String, path: String, status: Int, bodyBytes: Int
        /// nginx's serial number of the connection, and the request's place on it (from 1).
        var connection: Int, requestOnConnection: Int
        /// The conditional headers, nil when absent.
        var ifNoneMatch: String?, ifModifiedSince: String?
        /// The other headers the log format names (user-agent, accept, authorization,
        /// proxy-authorization, cookie, x-trace, x-client), by lower-case name, those present and not empty only (nginx logs
        /// an empty one as absent).
        var headers: [String: String]
    }

    /// The headers the log format names after the six plain fields, in its order.
    private static let loggedHeaders = [
        "if-none-match", "if-modified-since", "user-agent", "accept", "authorization", "proxy-authorization", "cookie",
        "x-trace", "x-client",
    ]

    /// The requests nginx has logged, in order, once there are `count` of them (nginx writes a
    /// line just after the response, so the last one can lag behind it); waits up to 30 s, a bound
    /// that only ends a broken run.
    func accessLog(count: Int) throws -> [Request] {
        let end = Date().addingTimeInterval(30)
        var log = try accessLog()
        while log.count < count, Date() < end {
            usleep(10_000)
            log = try accessLog()
        }
        return log
    }

    private func accessLog() throws -> [Request] {
        let text = try String(contentsOf: prefix.appendingPathComponent("access.log"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", maxSplits: 6).map(String.init)
            // The last field holds the quoted headers; nginx writes a quote inside one as \x22.
            let quoted = fields.count == 7 ? fields[6].dropFirst().dropLast().components(separatedBy: "\" \"") : []
            guard quoted.count == Self.loggedHeaders.count, let status = Int(fields[2]), let bytes = Int(fields[3]),
                  let connection = Int(fields[4]), let serial = Int(fields[5]) else {
                throw ServerError("unexpected access log line: \(line)")
            }
            var headers: [String: String] = [:]
            for (name, value) in zip(Self.loggedHeaders, quoted) where value != "-" {
                headers[name] = Self.unescaped(value)
            }
            let ifNoneMatch = headers.removeValue(forKey: "if-none-match")
            let ifModifiedSince = headers.removeValue(forKey: "if-modified-since")
            return Request(
                method: fields[0], path: fields[1], status: status, bodyBytes: bytes, connection: connection,
                requestOnConnection: serial, ifNoneMatch: ifNoneMatch, ifModifiedSince: ifModifiedSince, headers: headers)
        }
    }

    /// A logged value with nginx's escapes undone: `\xHH` for a quote, a backslash, a control
    /// character or a byte over 0x7E.
    private static func unescaped(_ logged: String) -> String {
        var bytes: [UInt8] = []
        var rest = Substring(logged).utf8[...]
        while let byte = rest.first {
            if byte == UInt8(ascii: "\\"), rest.count >= 4, rest.dropFirst().first == UInt8(ascii: "x"),
               let value = UInt8(String(decoding: rest.dropFirst(2).prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(4)
            } else {
                bytes.append(byte)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func stop() {
        server.stop()
    }

    /// A port nothing listens on now: bound to port 0, read back, released.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else { throw ServerError("cannot bind a port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when a TCP connection to 127.0.0.1:`port` is accepted.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                connect(fd, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
