import Foundation

/// One Redis server's TCP address: a host name or IP address, and a port.
public struct RedisAddress: Sendable, Hashable, CustomStringConvertible {
    /// A name or an IP address; non-empty.
    public var host: String
    /// 1 to 65535.
    public var port: Int

    /// The address `host:port` (no checks: see `validate()`).
    public init(host: String, port: Int = 6379) {
        self.host = host
        self.port = port
    }

    /// `host:port`, an IPv6 address in brackets.
    public var description: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// Throws `invalidArgument` for an empty host or a port out of 1...65535.
    public func validate() throws {
        if host.isEmpty { throw ImgCacheError.invalidArgument("the Redis host is empty") }
        guard (1...65_535).contains(port) else {
            throw ImgCacheError.invalidArgument("Redis port \(port) is not in 1...65535")
        }
    }

    /// The addresses of a comma-separated list `host[:port],...` (a port defaulting to
    /// `defaultPort`; an IPv6 address in brackets). At most `maximumCount` of them.
    /// - Throws: `invalidArgument` naming `url` for an empty list or entry, a host that is empty or
    ///   not plain (`/`, `@`, `?`, `#`, `%`, white space), a port that is not a number in 1...65535,
    ///   or more than `maximumCount` entries.
    static func list(_ text: Substring, defaultPort: Int, in url: String, maximumCount: Int = 64) throws -> [RedisAddress] {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
        guard entries.count <= maximumCount else {
            throw ImgCacheError.invalidArgument("'\(url)': more than \(maximumCount) Redis addresses")
        }
        return try entries.map { entry in
            let refused = ImgCacheError.invalidArgument("'\(url)': '\(entry)' is not a host[:port]")
            var host = entry
            var portText: Substring?
            if entry.hasPrefix("[") {
                guard let close = entry.firstIndex(of: "]") else { throw refused }
                host = entry[entry.index(after: entry.startIndex)..<close]
                let rest = entry[entry.index(after: close)...]
                if !rest.isEmpty {
                    guard rest.hasPrefix(":") else { throw refused }
                    portText = rest.dropFirst()
                }
            } else if let colon = entry.firstIndex(of: ":") {
                host = entry[..<colon]
                portText = entry[entry.index(after: colon)...]
            }
            guard !host.isEmpty, !host.contains(where: { "/@?#%[] ".contains($0) || $0.isWhitespace }) else { throw refused }
            var port = defaultPort
            if let portText {
                guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portText),
                      (1...65_535).contains(number)
                else { throw refused }
                port = number
            }
            return RedisAddress(host: String(host), port: port)
        }
    }
}
