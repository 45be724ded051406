import Glibc

/// An IP address in numeric form and a TCP port: where a server listens, or where a request came
/// from. Names are never looked up (no DNS): `localhost` is not an address, `127.0.0.1` is.
///
/// This file and `MHDDaemon.swift` hold the module's pointer work against C.
public struct NetworkAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as `inet_ntop` writes it: "127.0.0.1", "::1".
    public let host: String
    /// The TCP port (0 to listen on: any free port, which `HTTPServer.address` then reports).
    public let port: UInt16
    /// Whether `host` is an IPv6 address.
    public let isIPv6: Bool

    /// 127.0.0.1 at `port`.
    public static func loopback(port: UInt16) -> NetworkAddress {
        NetworkAddress(canonicalHost: "127.0.0.1", port: port, isIPv6: false)
    }

    /// The address of a numeric IPv4 or IPv6 host ("0.0.0.0", "::1"), written canonically;
    /// nil for anything else (names included).
    public init?(host: String, port: UInt16) {
        if var ipv4 = Self.ipv4(host) {
            self.init(canonicalHost: Self.text(of: &ipv4.sin_addr, family: AF_INET), port: port, isIPv6: false)
        } else if var ipv6 = Self.ipv6(host) {
            self.init(canonicalHost: Self.text(of: &ipv6.sin6_addr, family: AF_INET6), port: port, isIPv6: true)
        } else {
            return nil
        }
    }

    /// Parses `HOST:PORT`, IPv6 in brackets: "127.0.0.1:8080", "0.0.0.0:80", "[::1]:8080". Nil for
    /// anything else: a name, a missing or non-decimal port, a port above 65535.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let digits = text[text.index(after: colon)...]
        guard digits.allSatisfy({ ("0"..."9").contains($0) }), let port = UInt16(digits) else { return nil }
        var host = text[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count >= 2 {
            host = host.dropFirst().dropLast()
            guard host.contains(":") else { return nil }
        } else if host.contains(":") {
            return nil
        }
        self.init(host: String(host), port: port)
    }

    /// "127.0.0.1:8080", or "[::1]:8080" for IPv6.
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The same host at `port`.
    public func with(port: UInt16) -> NetworkAddress {
        NetworkAddress(canonicalHost: host, port: port, isIPv6: isIPv6)
    }

    private init(canonicalHost: String, port: UInt16, isIPv6: Bool) {
        self.host = canonicalHost
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// Calls `body` with this address as a `sockaddr_in` or `sockaddr_in6`.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        if isIPv6, var address = Self.ipv6(host) {
            address.sin6_port = port.bigEndian
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var address = Self.ipv4(host) ?? sockaddr_in()
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }

    /// The address and port in `address` (AF_INET or AF_INET6); nil for another family.
    init?(socketAddress address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var ipv4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self.init(canonicalHost: Self.text(of: &ipv4.sin_addr, family: AF_INET),
                      port: UInt16(bigEndian: ipv4.sin_port), isIPv6: false)
        case AF_INET6:
            var ipv6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            self.init(canonicalHost: Self.text(of: &ipv6.sin6_addr, family: AF_INET6),
                      port: UInt16(bigEndian: ipv6.sin6_port), isIPv6: true)
        default:
            return nil
        }
    }

    private static func ipv4(_ host: String) -> sockaddr_in? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        return inet_pton(AF_INET, host, &address.sin_addr) == 1 ? address : nil
    }

    private static func ipv6(_ host: String) -> sockaddr_in6? {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        return inet_pton(AF_INET6, host, &address.sin6_addr) == 1 ? address : nil
    }

    private static func text<Address>(of address: inout Address, family: Int32) -> String {
        // On the stack: every request's peer is written out.
        withUnsafeBytes(of: &address) { bytes in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
                guard let base = buffer.baseAddress, inet_ntop(family, bytes.baseAddress, base, socklen_t(buffer.count)) != nil else {
                    return ""
                }
                return String(cString: base)
            }
        }
    }
}
