import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One socket address of a host, a `sockaddr_in` or `sockaddr_in6` as bytes, as getaddrinfo
/// gives it: what the loader checks against `DataLoader.Configuration.refusesPrivateAddresses`
/// and what the Redis client connects to (`RedisHostResolver`).
struct SocketAddress: Sendable, Equatable {
    let family: Int32
    let bytes: [UInt8]

    /// Why a name has no address: getaddrinfo's own words.
    struct LookupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The IP address in it (without port, flow label or scope), nil for a family other than
    /// IPv4 and IPv6 or bytes too short for theirs.
    var ipAddress: IPAddress? {
        switch family {
        case AF_INET where bytes.count >= MemoryLayout<sockaddr_in>.size:
            IPAddress(bytes: Array(bytes[4..<8]))
        case AF_INET6 where bytes.count >= MemoryLayout<sockaddr_in6>.size:
            IPAddress(bytes: Array(bytes[8..<24]))
        default:
            nil
        }
    }

    /// getaddrinfo for a TCP stream to `host`:`service` (a port number), both families, in the
    /// order getaddrinfo sorts them. With `numericOnly`, `host` must be an IP address, read as the
    /// system reads one (inet_aton's forms for IPv4, such as `2130706433`, `0x7f.1` or `127.1`;
    /// IPv6 with an optional `%zone`): no lookup is made and nothing blocks.
    /// - Throws: `LookupFailure` when `host` does not resolve (or is no IP address, with
    ///   `numericOnly`) or has no address.
    static func lookUp(_ host: String, service: String, numericOnly: Bool) throws(LookupFailure) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, service, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0 else {
            throw LookupFailure(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        var addresses: [SocketAddress] = []
        var entry = list
        while let current = entry?.pointee {
            if let address = current.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(current.ai_addrlen))
                addresses.append(SocketAddress(family: current.ai_family, bytes: Array(bytes)))
            }
            entry = current.ai_next
        }
        guard !addresses.isEmpty else { throw LookupFailure(description: "\(host) has no address") }
        return addresses
    }
}
