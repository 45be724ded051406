import Foundation
import Synchronization
import XCTest

@testable import ImgCache

/// The Redis host's name is looked up once, on a thread of its own, and waited for no longer than
/// the resolve time-out: getaddrinfo has no time-out of its own. A lookup that blocks on a
/// semaphore stands in for a DNS server that does not answer.
final class RedisHostResolverTests: XCTestCase {
    private let address = RedisHostResolver.Address(family: AF_INET, bytes: [2, 0, 0x18, 0xEB, 10, 0, 0, 7])

    func testANameIsLookedUpOnceAndWaitedForWithinTheTimeOut() throws {
        let gate = DispatchSemaphore(value: 0)
        let calls = Atomic(0)
        let address = self.address
        let resolver = RedisHostResolver(host: "cache.internal", port: 6379) { host, service throws(RedisFailure) in
            calls.add(1, ordering: .sequentiallyConsistent)
            guard host == "cache.internal", service == "6379" else { throw RedisFailure("asked for \(host):\(service)") }
            gate.wait()
            return [address]
        }
        // The lookup started with the resolver hangs: a call waits for its time-out (0.1 s; 0.5 s of slack).
        let start = Date()
        XCTAssertThrowsError(try resolver.addresses(timeout: 0.1)) { error in
            XCTAssertEqual("\(error)", "cannot resolve cache.internal within 100 ms")
        }
        let waited = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(waited, 0.1)
        XCTAssertLessThan(waited, 0.6)
        // Another call waits for the same lookup rather than starting one.
        XCTAssertThrowsError(try resolver.addresses(timeout: 0.01))
        gate.signal()
        XCTAssertEqual(try resolver.addresses(timeout: 10), [address])
        XCTAssertEqual(calls.load(ordering: .sequentiallyConsistent), 1)
        // Kept: no lookup, whatever the time-out.
        XCTAssertEqual(try resolver.addresses(timeout: 0.001), [address])
        XCTAssertEqual(calls.load(ordering: .sequentiallyConsistent), 1)
        // Forgotten after a connection to it failed: looked up again.
        resolver.forget([address])
        gate.signal()
        XCTAssertEqual(try resolver.addresses(timeout: 10), [address])
        XCTAssertEqual(calls.load(ordering: .sequentiallyConsistent), 2)
    }

    /// A failure is not kept: while lookups fail every call fails (whether it waits for the lookup
    /// the resolver started or starts its own), and the first call after they succeed again makes
    /// one lookup and gets the address, which is then kept.
    func testAFailedLookupIsTriedAgainByTheNextCall() throws {
        let calls = Atomic(0)
        let failing = Atomic(true)
        let address = self.address
        let resolver = RedisHostResolver(host: "cache.internal", port: 6379) { host, _ throws(RedisFailure) in
            calls.add(1, ordering: .sequentiallyConsistent)
            guard !failing.load(ordering: .sequentiallyConsistent) else { throw RedisFailure("cannot resolve \(host): no such name") }
            return [address]
        }
        XCTAssertThrowsError(try resolver.addresses(timeout: 10)) { error in
            XCTAssertEqual("\(error)", "cannot resolve cache.internal: no such name")
        }
        let failedLookups = calls.load(ordering: .sequentiallyConsistent)
        XCTAssertTrue((1...2).contains(failedLookups), "the resolver's own lookup, and perhaps the call's: \(failedLookups)")
        failing.store(false, ordering: .sequentiallyConsistent)
        XCTAssertEqual(try resolver.addresses(timeout: 10), [address])
        XCTAssertEqual(calls.load(ordering: .sequentiallyConsistent), failedLookups + 1)
        XCTAssertEqual(try resolver.addresses(timeout: 10), [address])
        XCTAssertEqual(calls.load(ordering: .sequentiallyConsistent), failedLookups + 1, "kept once found")
    }

    func testIPAddressesNeedNoLookup() throws {
        for (host, family) in [("127.0.0.1", AF_INET), ("::1", AF_INET6)] {
            let resolver = RedisHostResolver(host: host, port: 6380) { _, _ throws(RedisFailure) in
                throw RedisFailure("looked up")
            }
            let addresses = try resolver.addresses(timeout: 0.001)
            XCTAssertEqual(addresses.map(\.family), [family], host)
            // The port, big-endian, after the family in sockaddr_in and sockaddr_in6.
            XCTAssertEqual(addresses.first.map { Array($0.bytes[2..<4]) }, [0x18, 0xEC], host)
            resolver.forget(addresses)
            XCTAssertEqual(try resolver.addresses(timeout: 0.001), addresses, "an address is never forgotten")
        }
    }
}
