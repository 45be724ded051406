import Foundation
import ImgCache
import XCTest

final class RedisConfigurationTests: XCTestCase {
    func testURLsParseWithDefaults() throws {
        let plain = try RedisConfiguration(url: "redis://127.0.0.1:6380/3")
        XCTAssertEqual(plain.deployment, .server(RedisAddress(host: "127.0.0.1", port: 6380)))
        XCTAssertEqual(plain.database, 3)
        XCTAssertNil(plain.password)
        XCTAssertNil(plain.secret)
        XCTAssertEqual(plain.connectTimeout, 0.05)
        XCTAssertEqual(plain.resolveTimeout, 1)
        XCTAssertEqual(plain.commandTimeout, 0.1)
        XCTAssertEqual(plain.connectionCount, 16)
        XCTAssertEqual(plain.maxValueBytes, 8 << 20)
        XCTAssertEqual(plain.gracePeriod, 86_400)
        XCTAssertEqual(plain.leaseTTL, 10)
        XCTAssertEqual(plain.retryAfterFailure, 1)
        XCTAssertEqual(plain.retryAfterFailureMax, 30)
        let secret = try RedisConfiguration(url: "redis://:p%40ss@cache.internal")
        XCTAssertEqual(secret.password, "p@ss")
        XCTAssertNil(secret.username)
        XCTAssertEqual(secret.deployment, .server(RedisAddress(host: "cache.internal", port: 6379)))
        XCTAssertEqual(secret.database, 0)
        XCTAssertEqual(secret.displayURL, "redis://cache.internal:6379/0")
        let user = try RedisConfiguration(url: "redis://worker:pw@cache.internal:7000/")
        XCTAssertEqual(user.username, "worker")
        XCTAssertEqual(user.password, "pw")
    }

    func testClusterURLsParse() throws {
        let cluster = try RedisConfiguration(url: "redis-cluster://:s%40cret@10.0.0.1:7000,cache-2:7001,[::1]:7002,cache-4")
        XCTAssertEqual(cluster.deployment, .cluster(seeds: [
            RedisAddress(host: "10.0.0.1", port: 7000), RedisAddress(host: "cache-2", port: 7001),
            RedisAddress(host: "::1", port: 7002), RedisAddress(host: "cache-4", port: 6379),
        ]))
        XCTAssertEqual(cluster.password, "s@cret")
        XCTAssertNil(cluster.username)
        XCTAssertEqual(cluster.database, 0)
        XCTAssertEqual(cluster.displayURL, "redis-cluster://10.0.0.1:7000,cache-2:7001,[::1]:7002,cache-4:6379")
        let user = try RedisConfiguration(url: "REDIS-CLUSTER://worker:pw@h:1/")
        XCTAssertEqual(user.username, "worker")
        XCTAssertEqual(user.password, "pw")
        for text in [
            "redis-cluster://", "redis-cluster://h:1,", "redis-cluster://,h:1", "redis-cluster://h:0", "redis-cluster://h:65536",
            "redis-cluster://h:1/0", "redis-cluster://h:1?x=1", "redis-cluster://h:1#f", "redis-cluster://h:x",
            "redis-cluster://[::1:7000", "redis-cluster://[::1]7000", "redis-cluster://:%zz@h:1", "redis-cluster://h :1",
            "redis-cluster://" + Array(repeating: "h:1", count: 65).joined(separator: ","),
        ] {
            XCTAssertThrowsError(try RedisConfiguration(url: text), text) { error in
                guard case ImgCacheError.invalidArgument = error else { return XCTFail("\(text): \(error)") }
            }
        }
        var database = cluster
        database.database = 1
        XCTAssertThrowsError(try database.validate())
    }

    func testInvalidURLsAreRefused() {
        for text in [
            "", "127.0.0.1:6379", "http://127.0.0.1:6379/0", "rediss://127.0.0.1/0", "redis://:6379/0", "redis:///0",
            "redis://127.0.0.1:0/0", "redis://127.0.0.1:65536/0", "redis://127.0.0.1:6379/16", "redis://127.0.0.1:6379/-1",
            "redis://127.0.0.1:6379/a", "redis://127.0.0.1:6379/0/1", "redis://127.0.0.1:6379/0?x=1", "redis://h/0#f",
        ] {
            XCTAssertThrowsError(try RedisConfiguration(url: text), text) { error in
                guard case ImgCacheError.invalidArgument = error else { return XCTFail("\(text): \(error)") }
            }
        }
    }

    func testSettingsOutOfRangeAreRefused() throws {
        let base = try RedisConfiguration(url: "redis://127.0.0.1:6379/0")
        let broken: [(String, (inout RedisConfiguration) -> Void)] = [
            ("connect", { $0.connectTimeout = 0 }), ("command", { $0.commandTimeout = .nan }),
            ("connections", { $0.connectionCount = 0 }), ("cap", { $0.maxValueBytes = 10 }),
            ("grace", { $0.gracePeriod = -1 }), ("lease", { $0.leaseTTL = 0 }),
            ("poll", { $0.leasePollStart = 1; $0.leasePollMax = 0.5 }), ("poll max", { $0.leasePollMax = .nan }),
            ("retry", { $0.retryAfterFailureMax = 0 }), ("retry max", { $0.retryAfterFailure = 40 }),
            ("retry max nan", { $0.retryAfterFailureMax = .nan }), ("resolve", { $0.resolveTimeout = 0 }),
            ("host", { $0.deployment = .server(RedisAddress(host: "")) }), ("secret", { $0.secret = Data() }), ("short secret", { $0.secret = Data(count: 15) }),
            ("connections", { $0.connectionCount = 257 }),
        ]
        for (name, change) in broken {
            var configuration = base
            change(&configuration)
            XCTAssertThrowsError(try configuration.validate(), name) { error in
                guard case ImgCacheError.invalidArgument = error else { return XCTFail("\(name): \(error)") }
            }
        }
        var secret = base
        secret.secret = Data(count: 16)
        XCTAssertNoThrow(try secret.validate())
        // The maximum is named when it is the setting out of range.
        var retry = base
        retry.retryAfterFailure = 40
        XCTAssertThrowsError(try retry.validate()) { error in
            XCTAssertTrue("\(error)".contains("retry after failure 40.0 s is not in 0.001...30.0 s"), "\(error)")
        }
    }

    func testHostInitValidates() {
        XCTAssertNoThrow(try RedisConfiguration(host: "cache.internal"))
        for (host, port, database) in [("", 6379, 0), ("h", 0, 0), ("h", 70_000, 0), ("h", Int(Int32.max) + 1, 0), ("h", 6379, 16)] {
            XCTAssertThrowsError(try RedisConfiguration(host: host, port: port, database: database), "\(host):\(port)/\(database)")
        }
    }
}
