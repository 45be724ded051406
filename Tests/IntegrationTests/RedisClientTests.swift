import Foundation
import Synchronization
import XCTest

@testable import ImgCache

/// The messages a component logged, for assertions.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var hook: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
}

extension RedisClient {
    /// A client of the one server of `configuration` (a `.server` deployment).
    convenience init(configuration: RedisConfiguration, log: (@Sendable (String) -> Void)?) {
        guard case .server(let address) = configuration.deployment else { preconditionFailure("not one server") }
        self.init(address: address, configuration: configuration, log: log)
    }
}

final class RedisClientTests: XCTestCase {
    private func client(_ server: RedisServer, log: LogLines, retry: TimeInterval = 0.2) throws -> RedisClient {
        var configuration = try RedisConfiguration(url: server.url)
        configuration.retryAfterFailure = retry
        configuration.retryAfterFailureMax = retry * 4
        return RedisClient(configuration: configuration, log: log.hook)
    }

    func testBinaryValuesRoundTripWithAuthAndSelect() throws {
        let server = try RedisServer(password: "s3cret")
        defer { server.stop() }
        var configuration = try RedisConfiguration(url: server.url)
        configuration.database = 5
        let log = LogLines()
        let client = RedisClient(configuration: configuration, log: log.hook)
        let bytes = Data([0, 1, 0, 255, 13, 10, 0])
        let replies = client.run([[Data("SET".utf8), Data("k".utf8), bytes], [Data("GET".utf8), Data("k".utf8)]])
        XCTAssertEqual(replies, [.status("OK"), .bytes(bytes)])
        XCTAssertEqual(try server.cli("-n", "5", "STRLEN", "k"), "7")
        XCTAssertEqual(client.run([[Data("GET".utf8), Data("absent".utf8)]]), [.null])
        XCTAssertEqual(log.all, [])

        configuration.password = "wrong"
        let refused = RedisClient(configuration: configuration, log: log.hook)
        XCTAssertNil(refused.run([[Data("GET".utf8), Data("k".utf8)]]))
        XCTAssertEqual(log.all.count, 1)
        XCTAssertTrue(log.all[0].contains("AUTH refused"), log.all[0])
    }

    func testOutageIsSkippedWarnedOnceAndEndsWhenTheServerIsBack() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let log = LogLines()
        let client = try client(server, log: log)
        let get = [[Data("GET".utf8), Data("k".utf8)]]
        XCTAssertEqual(client.run(get), [.null])
        server.stop()
        // Killed: the pooled connection is closed, a new one is refused; then calls are skipped.
        // None waits past the time-outs (50 ms to connect, 100 ms a command; 1 s of slack).
        for _ in 0..<50 {
            let start = Date()
            XCTAssertNil(client.run(get))
            XCTAssertLessThan(Date().timeIntervalSince(start), 1.15)
        }
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        try server.start()
        // The server is used again once the back-off (0.2 s here) has passed (60 s: a bound that
        // only ends a broken run).
        let end = Date().addingTimeInterval(60)
        var replies: [RedisReply]?
        while replies == nil && Date() < end {
            replies = client.run(get)
            if replies == nil { usleep(20_000) }
        }
        XCTAssertEqual(replies, [.null])
        XCTAssertEqual(log.all.count, 1)
        // A restart between two calls is invisible: the closed connection is replaced at once.
        server.stop()
        try server.start()
        XCTAssertEqual(client.run(get), [.null])
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        // A second outage, a second warning.
        server.stop()
        XCTAssertNil(client.run(get))
        XCTAssertEqual(log.all.count, 2, "\(log.all)")
    }

    func testAFailingServerCostsOneConnectionPerBackOffAndOneWarning() throws {
        // Every connection accepted, then closed before any reply: each attempt is an event.
        let server = try FakeRedisServer(mode: .close)
        defer { server.stop() }
        var configuration = try RedisConfiguration(url: server.url)
        configuration.retryAfterFailure = 1
        configuration.retryAfterFailureMax = 2
        let log = LogLines()
        let client = RedisClient(configuration: configuration, log: log.hook)
        for _ in 0..<100 { XCTAssertNil(client.run([[Data("PING".utf8)]])) }
        XCTAssertEqual(try server.events { $0 == "connect 1" }, ["connect 1"], "one attempt, the other calls skipped")
        XCTAssertEqual(log.all.count, 1)
        XCTAssertTrue(log.all[0].contains("Redis at \(server.url) is unavailable"), log.all[0])
        // Once the back-off has passed, the next call tries again: the second connection (60 s: a
        // bound that only ends a broken run).
        let end = Date().addingTimeInterval(60)
        while !server.events().contains("connect 2") && Date() < end { XCTAssertNil(client.run([[Data("PING".utf8)]])) }
        XCTAssertEqual(server.events(), ["connect 1", "connect 2"])
        XCTAssertEqual(log.all.count, 1, "still the same outage: \(log.all)")
    }

    func testAStalledServerTimesOut() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let log = LogLines()
        let client = try client(server, log: log)
        XCTAssertEqual(client.run([[Data("PING".utf8)]]), [.status("PONG")])
        // DEBUG SLEEP blocks the server for 3 s, far longer than the 100 ms command time-out
        // (slack: 0.9 s).
        let start = Date()
        XCTAssertNil(client.run([[Data("DEBUG".utf8), Data("SLEEP".utf8), Data("3".utf8)]]))
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        XCTAssertEqual(log.all.count, 1)
        XCTAssertTrue(log.all[0].contains("no reply within 100 ms"), log.all[0])
    }

    func testATricklingReplyFailsAtTheCommandTimeOut() throws {
        // Every read of the old client's socket got a byte within its 100 ms, so it waited for
        // the whole reply (4096 bytes at 20 a second) until the server gave up after 10 s.
        let server = try FakeRedisServer(mode: .trickle)
        defer { server.stop() }
        var configuration = try RedisConfiguration(url: server.url)
        configuration.commandTimeout = 0.2
        let log = LogLines()
        let tier = RedisTier(configuration: configuration, log: log.hook)
        let start = Date()
        XCTAssertNil(tier.cachedData(for: "http://origin.example/a.jpg"))
        let elapsed = Date().timeIntervalSince(start)
        print("trickled GETRANGE: nil after \(String(format: "%.3f", elapsed)) s (command time-out 0.2 s)")
        // The command time-out, with slack for a loaded machine: the old client waited 10 s.
        XCTAssertGreaterThanOrEqual(elapsed, 0.2)
        XCTAssertLessThan(elapsed, 1)
        XCTAssertEqual(log.all.count, 1)
        XCTAssertTrue(log.all[0].contains("no reply within 200 ms"), log.all[0])
        XCTAssertEqual(tier.counters, RedisTierCounters(errors: 1))
        // The server saw the read, and the client hang up after a few bytes of its reply.
        let events = try server.events { $0.hasPrefix("hangup 1 ") }
        XCTAssertTrue(events.contains("command 1 GETRANGE"), "\(events)")
        let sent = try XCTUnwrap(events.last { $0.hasPrefix("hangup 1 ") }.flatMap { Int($0.split(separator: " ")[2]) })
        XCTAssertLessThan(sent, 25, "bytes sent (20 a second) before the client hung up")
    }

    func testRepliesOverTheValueCapFailAsTheyArrive() throws {
        // A GETRANGE answered with 16 MiB: the client stops reading once past the 1 MiB cap and
        // 64 KiB of slack, and holds no more of it.
        let server = try FakeRedisServer(mode: .flood, bulkBytes: 16 << 20)
        defer { server.stop() }
        var configuration = try RedisConfiguration(url: server.url)
        configuration.maxValueBytes = 1 << 20
        configuration.commandTimeout = 5
        let log = LogLines()
        let client = RedisClient(configuration: configuration, log: log.hook)
        XCTAssertNil(client.run([[Data("GETRANGE".utf8), Data("k".utf8), Data("0".utf8), Data(String(1 << 20).utf8)]]))
        XCTAssertEqual(log.all.count, 1)
        XCTAssertTrue(log.all[0].contains("replies over \((1 << 20) + (64 << 10)) bytes"), log.all[0])
        let events = try server.events { $0.hasPrefix("hangup 1 ") }
        XCTAssertTrue(events.contains("command 1 GETRANGE"), "\(events)")
    }

    func testBytesNobodyAskedForAreNeverReadAsAReply() throws {
        // The old client read the +FORGED left after a reply as the reply to the next command.
        let server = try FakeRedisServer(mode: .forge)
        defer { server.stop() }
        let log = LogLines()
        let client = RedisClient(configuration: try RedisConfiguration(url: server.url), log: log.hook)
        XCTAssertEqual(client.run([[Data("PING".utf8)]]), [.status("PONG")])
        _ = try server.events { $0 == "forged 1" }
        // The connection holding it is replaced by a new one, once, without a warning.
        XCTAssertEqual(client.run([[Data("PING".utf8)]]), [.status("PONG")])
        XCTAssertEqual(server.events().filter { $0.hasPrefix("connect") }, ["connect 1", "connect 2"])
        XCTAssertEqual(log.all, [])
    }

    func testHostNamesAreResolved() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let log = LogLines()
        let client = RedisClient(configuration: try RedisConfiguration(url: "redis://localhost:\(server.port)/0"), log: log.hook)
        XCTAssertEqual(client.run([[Data("PING".utf8)]]), [.status("PONG")])
        XCTAssertEqual(log.all, [])
    }
}
