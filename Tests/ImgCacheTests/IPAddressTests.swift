import Foundation
import XCTest

@testable import ImgCache

/// The classification behind `refusesPrivateAddresses`: every block that is not on the public
/// internet, at both ends, with its public neighbours; the IPv6 forms of IPv4 addresses; and the
/// numeric spellings the system resolver (so libcurl) reads as an address.
final class IPAddressTests: XCTestCase {
    private func range(_ literal: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard let address = IPAddress(literal: literal) else {
            XCTFail("\(literal) is no IP address", file: file, line: line)
            return nil
        }
        return address.nonPublicRange
    }

    func testEveryIPv4BlockIsRefusedFromItsFirstToItsLastAddress() {
        let blocks: [(first: String, last: String, name: String)] = [
            ("0.0.0.0", "0.0.0.0", "unspecified, 0.0.0.0/32"),
            ("0.0.0.1", "0.255.255.255", "this network, 0.0.0.0/8"),
            ("10.0.0.0", "10.255.255.255", "private, 10.0.0.0/8"),
            ("100.64.0.0", "100.127.255.255", "carrier-grade NAT, 100.64.0.0/10"),
            ("127.0.0.0", "127.255.255.255", "loopback, 127.0.0.0/8"),
            ("169.254.0.0", "169.254.255.255", "link-local, 169.254.0.0/16"),
            ("172.16.0.0", "172.31.255.255", "private, 172.16.0.0/12"),
            ("192.0.0.0", "192.0.0.255", "IETF protocol assignments, 192.0.0.0/24"),
            ("192.0.2.0", "192.0.2.255", "documentation, 192.0.2.0/24"),
            ("192.168.0.0", "192.168.255.255", "private, 192.168.0.0/16"),
            ("198.18.0.0", "198.19.255.255", "benchmarking, 198.18.0.0/15"),
            ("198.51.100.0", "198.51.100.255", "documentation, 198.51.100.0/24"),
            ("203.0.113.0", "203.0.113.255", "documentation, 203.0.113.0/24"),
            ("224.0.0.0", "239.255.255.255", "multicast, 224.0.0.0/4"),
            ("240.0.0.0", "255.255.255.254", "reserved, 240.0.0.0/4"),
            ("255.255.255.255", "255.255.255.255", "broadcast, 255.255.255.255/32"),
        ]
        for block in blocks {
            XCTAssertEqual(range(block.first), block.name, block.first)
            XCTAssertEqual(range(block.last), block.name, block.last)
        }
        XCTAssertEqual(range("169.254.169.254"), "link-local, 169.254.0.0/16", "the cloud metadata address")
    }

    func testTheNeighboursOfTheIPv4BlocksArePublic() {
        for literal in [
            "1.0.0.0", "8.8.8.8", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255",
            "128.0.0.0", "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "192.0.1.0", "192.167.255.255",
            "192.169.0.0", "198.17.255.255", "198.20.0.0", "203.0.112.255", "223.255.255.255",
        ] {
            XCTAssertNil(range(literal), literal)
        }
    }

    func testEveryIPv6BlockIsRefused() {
        let blocks: [(literal: String, name: String)] = [
            ("::", "unspecified, ::/128"), ("::1", "loopback, ::1/128"),
            ("fc00::", "unique-local, fc00::/7"), ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "unique-local, fc00::/7"),
            ("fe80::1", "link-local, fe80::/10"), ("febf:ffff::1", "link-local, fe80::/10"),
            ("fec0::1", "site-local, fec0::/10"), ("ff00::", "multicast, ff00::/8"), ("ff02::1", "multicast, ff00::/8"),
            ("100::1", "discard-only, 100::/64"), ("2001:db8::1", "documentation, 2001:db8::/32"),
            ("64:ff9b:1::1", "local-use NAT64, 64:ff9b:1::/48"),
        ]
        for block in blocks {
            XCTAssertEqual(range(block.literal), block.name, block.literal)
        }
        for literal in ["2001:4860:4860::8888", "2606:4700::1111", "2001:db9::1", "2001:db7:ffff::1", "3fff:ffff::1"] {
            XCTAssertNil(range(literal), literal)
        }
        // Outside global unicast (2000::/3), nothing is on the public internet.
        for literal in ["1fff:ffff::1", "4000::1", "fbff:ffff::1", "fe00::1", "::2:0:0:1", "::ffff:0:127.0.0.1"] {
            XCTAssertEqual(range(literal), "not global unicast, outside 2000::/3", literal)
        }
    }

    func testIPv6FormsOfARefusedIPv4AddressAreRefusedAndOfAPublicOneAreNot() {
        let forms: [(literal: String, name: String)] = [
            ("::ffff:127.0.0.1", "IPv4-mapped, ::ffff:0:0/96: 127.0.0.1 is loopback, 127.0.0.0/8"),
            ("::ffff:7f00:1", "IPv4-mapped, ::ffff:0:0/96: 127.0.0.1 is loopback, 127.0.0.0/8"),
            ("::ffff:169.254.169.254", "IPv4-mapped, ::ffff:0:0/96: 169.254.169.254 is link-local, 169.254.0.0/16"),
            ("::127.0.0.1", "IPv4-compatible, ::/96: 127.0.0.1 is loopback, 127.0.0.0/8"),
            ("::a00:1", "IPv4-compatible, ::/96: 10.0.0.1 is private, 10.0.0.0/8"),
            ("::2", "IPv4-compatible, ::/96: 0.0.0.2 is this network, 0.0.0.0/8"),
            ("64:ff9b::a9fe:a9fe", "NAT64, 64:ff9b::/96: 169.254.169.254 is link-local, 169.254.0.0/16"),
            ("64:ff9b::192.168.1.1", "NAT64, 64:ff9b::/96: 192.168.1.1 is private, 192.168.0.0/16"),
            ("2002:7f00:1::", "6to4, 2002::/16: 127.0.0.1 is loopback, 127.0.0.0/8"),
        ]
        for form in forms {
            XCTAssertEqual(range(form.literal), form.name, form.literal)
        }
        for literal in ["::ffff:8.8.8.8", "::8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"] {
            XCTAssertNil(range(literal), literal)
        }
    }

    func testNumericSpellingsAreTheAddressTheSystemReads() {
        let spellings: [(literal: String, address: String)] = [
            ("2130706433", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("127.1", "127.0.0.1"),
            ("0x7f000001", "127.0.0.1"), ("017700000001", "127.0.0.1"), ("0X7F.0.0.1", "127.0.0.1"), ("0", "0.0.0.0"),
            ("169.254.43518", "169.254.169.254"), ("0xa9fea9fe", "169.254.169.254"), ("10.1", "10.0.0.1"),
            ("::FFFF:127.0.0.1", "::ffff:127.0.0.1"), ("0:0:0:0:0:0:0:1", "::1"), ("fe80::1%lo", "fe80::1"),
            ("fe80::1%1", "fe80::1"),
        ]
        for spelling in spellings {
            XCTAssertEqual(IPAddress(literal: spelling.literal)?.description, spelling.address, spelling.literal)
            XCTAssertNotNil(IPAddress(literal: spelling.literal)?.nonPublicRange, spelling.literal)
        }
        // Names, and what no resolver reads as an address: looked up as names.
        for name in ["localhost", "127.0.0.1.", "1.2.3.4.5", "08.1.1.1", "[::1]", "fe80::1%25lo", "", "0x", "example.com"] {
            XCTAssertNil(IPAddress(literal: name), name)
        }
    }

    func testURLHostsAndSocketAddresses() throws {
        XCTAssertEqual(IPAddress(literal: "::ffff:7f00:1")?.description, "::ffff:127.0.0.1")
        XCTAssertEqual(IPAddress(literal: "2001:0db8:0:0::1")?.description, "2001:db8::1")
        XCTAssertNil(IPAddress(bytes: [127, 0, 0]))
        let addresses = try SocketAddress.lookUp("::1", service: "8080", numericOnly: true)
        XCTAssertEqual(addresses.map(\.family), [AF_INET6])
        XCTAssertEqual(addresses.first?.ipAddress, IPAddress(bytes: Array(repeating: 0, count: 15) + [1]))
        XCTAssertEqual(try SocketAddress.lookUp("10.0.0.7", service: "80", numericOnly: true).first?.ipAddress?.bytes, [10, 0, 0, 7])
        XCTAssertNil(SocketAddress(family: AF_UNIX, bytes: [1, 0]).ipAddress)
        XCTAssertThrowsError(try SocketAddress.lookUp("localhost", service: "80", numericOnly: true)) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot resolve localhost: "), "\(error)")
        }
    }
}
