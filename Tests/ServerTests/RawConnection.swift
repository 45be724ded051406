import Foundation
import Glibc

/// A TCP connection to 127.0.0.1 (or ::1) written and read byte by byte, for requests URLSession
/// will not send. Reads time out after 30 s (a bound that only ends a broken run).
final class RawConnection {
    /// A response as read off the wire.
    struct Response {
        let status: Int
        /// Names lower-cased.
        let headers: [String: String]
        let body: [UInt8]
    }

    private let socket: Int32

    /// Connects, or throws with the connect(2) error (ECONNREFUSED once nothing listens).
    init(port: UInt16, ipv6: Bool = false) throws(ConnectFailure) {
        socket = Glibc.socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ConnectFailure(code: errno) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            let code = errno
            close(socket)
            throw ConnectFailure(code: code)
        }
    }

    deinit {
        close(socket)
    }

    struct ConnectFailure: Error {
        let code: Int32
    }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestFailure("send failed: errno \(errno)") }
            bytes = bytes.dropFirst(sent)
        }
    }

    private var buffer: [UInt8] = []

    /// Reads more bytes; false at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw TestFailure("recv failed: errno \(errno)") }
        buffer += chunk[..<count]
        return count > 0
    }

    /// Reads one response (its body by `Content-Length`, none for HEAD when `head`).
    func readResponse(head: Bool = false) throws -> Response {
        let separator = Array("\r\n\r\n".utf8)
        var end: Int?
        while true {
            end = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == separator }
            if end != nil { break }
            guard try fill() else { throw TestFailure("connection closed before a response: \(String(decoding: buffer, as: UTF8.self))") }
        }
        let headEnd = end! + 4
        let lines = String(decoding: buffer[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        let statusFields = lines[0].split(separator: " ")
        guard statusFields.count >= 2, let status = Int(statusFields[1]) else { throw TestFailure("bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = head ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < headEnd + length {
            guard try fill() else { throw TestFailure("connection closed in the body") }
        }
        let body = Array(buffer[headEnd..<headEnd + length])
        buffer.removeFirst(headEnd + length)
        return Response(status: status, headers: headers, body: body)
    }

    /// Ends the connection both ways (the descriptor is closed when this goes).
    func hangUp() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Whether the server closed the connection (reads nothing more, within 30 s).
    func isClosedByServer() -> Bool {
        (try? fill()) == false
    }
}
