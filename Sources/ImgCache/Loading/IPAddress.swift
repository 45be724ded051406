import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address, and whether it is one a service that fetches URLs strangers hand it
/// may connect to (`nonPublicRange`): only addresses of the public internet are.
struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    let bytes: [UInt8]

    /// A block of addresses that is not on the public internet.
    private struct Block {
        let prefix: [UInt8]
        let length: Int
        let name: String

        /// The block `address`/`length` (`address` an IPv4 or IPv6 literal), named `name`.
        init(_ address: String, _ length: Int, _ name: String) {
            prefix = IPAddress(literal: address)?.bytes ?? []
            self.length = length
            self.name = "\(name), \(address)/\(length)"
        }

        func contains(_ bytes: [UInt8]) -> Bool {
            guard bytes.count == prefix.count, !prefix.isEmpty else { return false }
            for bit in 0..<length where (bytes[bit / 8] ^ prefix[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 {
                return false
            }
            return true
        }
    }

    /// The IPv4 blocks of IANA's special-purpose registry that are not globally reachable
    /// (RFC 6890 and its updates), broadcast before the reserved block that holds it.
    private static let ipv4Blocks = [
        Block("0.0.0.0", 32, "unspecified"), Block("0.0.0.0", 8, "this network"),
        Block("10.0.0.0", 8, "private"), Block("100.64.0.0", 10, "carrier-grade NAT"),
        Block("127.0.0.0", 8, "loopback"), Block("169.254.0.0", 16, "link-local"),
        Block("172.16.0.0", 12, "private"), Block("192.0.0.0", 24, "IETF protocol assignments"),
        Block("192.0.2.0", 24, "documentation"), Block("192.168.0.0", 16, "private"),
        Block("198.18.0.0", 15, "benchmarking"), Block("198.51.100.0", 24, "documentation"),
        Block("203.0.113.0", 24, "documentation"), Block("224.0.0.0", 4, "multicast"),
        Block("255.255.255.255", 32, "broadcast"), Block("240.0.0.0", 4, "reserved"),
    ]

    /// The IPv6 blocks that are not globally reachable, the ones that embed an IPv4 address
    /// aside (`embeddingBlocks`). Every address outside global unicast (`globalUnicast`) is
    /// refused too.
    private static let ipv6Blocks = [
        Block("::", 128, "unspecified"), Block("::1", 128, "loopback"),
        Block("64:ff9b:1::", 48, "local-use NAT64"), Block("100::", 64, "discard-only"),
        Block("2001:db8::", 32, "documentation"), Block("fc00::", 7, "unique-local"),
        Block("fe80::", 10, "link-local"), Block("fec0::", 10, "site-local"), Block("ff00::", 8, "multicast"),
    ]

    /// The only IPv6 block allocated for the public internet (RFC 4291).
    private static let globalUnicast = Block("2000::", 3, "global unicast")

    /// IPv6 blocks that carry an IPv4 address, and the bytes it is in: a packet to one goes to,
    /// or is translated for, that IPv4 address.
    private static let embeddingBlocks: [(block: Block, ipv4: Range<Int>)] = [
        (Block("::ffff:0:0", 96, "IPv4-mapped"), 12..<16), (Block("::", 96, "IPv4-compatible"), 12..<16),
        (Block("64:ff9b::", 96, "NAT64"), 12..<16), (Block("2002::", 16, "6to4"), 2..<6),
    ]

    /// Nil unless `bytes` has 4 or 16 bytes.
    init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address `literal` stands for, read as the system resolver reads a numeric host
    /// (getaddrinfo with `AI_NUMERICHOST`: inet_aton's IPv4 forms such as `2130706433`,
    /// `0177.0.0.1`, `0x7f.1` and `127.1`, and IPv6 with or without a `%zone`, without
    /// brackets); nil for anything else, names included. No lookup is made.
    init?(literal: String) {
        guard let address = (try? SocketAddress.lookUp(literal, service: "0", numericOnly: true))?.first?.ipAddress else {
            return nil
        }
        self = address
    }

    /// Why the address is not on the public internet: its block's name and range, such as
    /// "loopback, 127.0.0.0/8", or "IPv4-mapped, ::ffff:0:0/96: 127.0.0.1 is loopback, 127.0.0.0/8"
    /// for an IPv6 form of a refused IPv4 address. Nil for a public address: IPv4 outside the
    /// special-purpose blocks, IPv6 global unicast (2000::/3) outside them, and an IPv6 form of a
    /// public IPv4 address.
    var nonPublicRange: String? {
        if bytes.count == 4 { return Self.ipv4Blocks.first { $0.contains(bytes) }?.name }
        if let block = Self.ipv6Blocks.first(where: { $0.contains(bytes) }) { return block.name }
        for (block, range) in Self.embeddingBlocks where block.contains(bytes) {
            let ipv4 = IPAddress(bytes: Array(bytes[range]))
            return ipv4.flatMap { address in address.nonPublicRange.map { "\(block.name): \(address) is \($0)" } }
        }
        return Self.globalUnicast.contains(bytes) ? nil : "not global unicast, outside 2000::/3"
    }

    /// Dotted decimal for IPv4, RFC 5952 text for IPv6 (inet_ntop).
    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        guard written != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
