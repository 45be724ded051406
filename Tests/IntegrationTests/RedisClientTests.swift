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
        var start = Date()
        for _ in 0..<50 { XCTAssertNil(client.run(get)) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "no call waits past the time-outs")
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        // Still down after the back-off: a retry fails without a second warning.
        usleep(250_000)
        XCTAssertNil(client.run(get))
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        try server.start()
        // Back-off now up to 0.4 s: the server is used again once it passes.
        start = Date()
        var replies: [RedisReply]?
        while replies == nil && Date().timeIntervalSince(start) < 2 {
            replies = client.run(get)
            usleep(20_000)
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

    func testAbsentServerCostsOneConnectAttemptPerBackOff() throws {
        let port = try NginxServer.freePort()
        var configuration = try RedisConfiguration(url: "redis://127.0.0.1:\(port)/0")
        configuration.retryAfterFailure = 10
        let log = LogLines()
        let client = RedisClient(configuration: configuration, log: log.hook)
        let start = Date()
        for _ in 0..<1000 { XCTAssertNil(client.run([[Data("PING".utf8)]])) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5)
        XCTAssertEqual(log.all.count, 1)
        XCTAssertTrue(log.all[0].contains("redis://127.0.0.1:\(port)/0"), log.all[0])
    }

    func testAStalledServerTimesOut() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let log = LogLines()
        let client = try client(server, log: log)
        // DEBUG SLEEP blocks the server for longer than the 100 ms command time-out.
        let start = Date()
        XCTAssertNil(client.run([[Data("DEBUG".utf8), Data("SLEEP".utf8), Data("0.5".utf8)]]))
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.4)
        XCTAssertEqual(log.all.count, 1)
    }
}
