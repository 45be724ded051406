import Foundation
import XCTest

@testable import ImgCache

/// A round trip's deadline is checked after a poll, not before: a thread scheduled late (a loaded
/// machine, a sanitizer) still finds a socket that became ready in time, and only a socket with
/// nothing to report by the deadline times out.
final class RedisConnectionDeadlineTests: XCTestCase {
    private func pastDeadline() -> UInt64 { DispatchTime.now().uptimeNanoseconds - 1_000_000 }

    func testAReadySocketIsReportedWhenTheDeadlineHasAlreadyPassed() throws {
        var pair: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        defer { pair.forEach { close($0) } }
        var byte: UInt8 = 7
        XCTAssertEqual(write(pair[1], &byte, 1), 1)
        let events = try RedisConnection.poll(pair[0], for: Int16(POLLIN), until: pastDeadline()) { "late" }
        XCTAssertEqual(events & Int16(POLLIN), Int16(POLLIN))
    }

    func testASocketWithNothingToReadTimesOutOnceTheDeadlineHasPassed() {
        var pair: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        defer { pair.forEach { close($0) } }
        XCTAssertThrowsError(try RedisConnection.poll(pair[0], for: Int16(POLLIN), until: pastDeadline()) { "no reply within 50 ms" }) {
            XCTAssertEqual("\($0)", "no reply within 50 ms")
        }
    }

    func testALoopbackConnectionIsMadeWhenTheDeadlineHasAlreadyPassed() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                bind(listener, sockaddr, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, sockaddr, &length) == 0
            }
        }
        XCTAssertTrue(bound)
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        let socket = try RedisConnection.connect(RedisHostResolver.Address(family: AF_INET, bytes: bytes), deadline: pastDeadline())
        defer { close(socket) }
        var peer = sockaddr_in()
        var peerLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        let connected = withUnsafeMutablePointer(to: &peer) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &peerLength) }
        }
        XCTAssertEqual(connected, 0)
        XCTAssertEqual(peer.sin_port, address.sin_port)
    }
}
