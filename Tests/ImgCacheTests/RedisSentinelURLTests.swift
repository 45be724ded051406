import Foundation
import XCTest

@testable import ImgCache

/// `redis-sentinel://` URLs, the addresses a sentinel may name, and the `-READONLY` replies that
/// make the Sentinel client let a demoted master go.
final class RedisSentinelURLTests: XCTestCase {
    func testSentinelURLsParse() throws {
        let plain = try RedisConfiguration(url: "redis-sentinel://10.0.0.1,10.0.0.2:26380,[::1]:5000/mymaster")
        XCTAssertEqual(plain.deployment, .sentinel(
            sentinels: [
                RedisAddress(host: "10.0.0.1", port: 26379), RedisAddress(host: "10.0.0.2", port: 26380),
                RedisAddress(host: "::1", port: 5000),
            ],
            masterName: "mymaster"))
        XCTAssertEqual(plain.database, 0)
        XCTAssertNil(plain.password)
        XCTAssertEqual(plain.displayURL, "redis-sentinel://10.0.0.1:26379,10.0.0.2:26380,[::1]:5000/mymaster/0")
        let full = try RedisConfiguration(url: "REDIS-SENTINEL://worker:p%40ss@s1.internal:26379/cache%2Dmaster/7")
        XCTAssertEqual(full.deployment, .sentinel(
            sentinels: [RedisAddress(host: "s1.internal", port: 26379)], masterName: "cache-master"))
        XCTAssertEqual(full.database, 7)
        XCTAssertEqual(full.username, "worker")
        XCTAssertEqual(full.password, "p@ss")
        XCTAssertFalse(full.displayURL.contains("p@ss"))
        let passwordOnly = try RedisConfiguration(url: "redis-sentinel://:secret@127.0.0.1/m")
        XCTAssertNil(passwordOnly.username)
        XCTAssertEqual(passwordOnly.password, "secret")
    }

    func testInvalidSentinelURLsAreRefused() {
        let longName = String(repeating: "m", count: 256)
        for text in [
            "redis-sentinel://127.0.0.1:26379", "redis-sentinel://127.0.0.1:26379/", "redis-sentinel://127.0.0.1/m/16",
            "redis-sentinel://127.0.0.1/m/-1", "redis-sentinel://127.0.0.1/m/a", "redis-sentinel://127.0.0.1/m/0/1",
            "redis-sentinel://127.0.0.1/m/", "redis-sentinel://127.0.0.1//0", "redis-sentinel://127.0.0.1/m?x=1",
            "redis-sentinel://127.0.0.1/m#f", "redis-sentinel:///m", "redis-sentinel://,127.0.0.1/m",
            "redis-sentinel://127.0.0.1:0/m", "redis-sentinel://127.0.0.1:65536/m", "redis-sentinel://h:x/m",
            "redis-sentinel://127.0.0.1/a%20b", "redis-sentinel://127.0.0.1/a%0Ab", "redis-sentinel://127.0.0.1/%zz",
            "redis-sentinel://127.0.0.1/" + longName, "redis-sentinel://:%zz@127.0.0.1/m", "redis-sentinel//127.0.0.1/m",
        ] {
            XCTAssertThrowsError(try RedisConfiguration(url: text), text) { error in
                guard case ImgCacheError.invalidArgument = error else { return XCTFail("\(text): \(error)") }
            }
        }
    }

    func testAConfigurationWithAnInvalidMasterNameFailsValidation() throws {
        let sentinels = [RedisAddress(host: "127.0.0.1", port: 26379)]
        XCTAssertNoThrow(try RedisConfiguration(deployment: .sentinel(sentinels: sentinels, masterName: "m")))
        for name in ["", "a b", "tab\t", String(repeating: "x", count: 256)] {
            XCTAssertThrowsError(try RedisConfiguration(deployment: .sentinel(sentinels: sentinels, masterName: name)), name)
        }
        XCTAssertThrowsError(try RedisConfiguration(deployment: .sentinel(sentinels: [], masterName: "m")))
    }

    func testOnlyAPlainAddressFromASentinelIsTaken() {
        XCTAssertEqual(
            RedisSentinelLookup.address(host: Data("10.1.2.3".utf8), port: Data("6380".utf8)),
            RedisAddress(host: "10.1.2.3", port: 6380))
        XCTAssertEqual(
            RedisSentinelLookup.address(host: Data("redis-1.internal".utf8), port: Data("1".utf8)),
            RedisAddress(host: "redis-1.internal", port: 1))
        let refused: [(String, String)] = [
            ("", "6379"), ("10.1.2.3", ""), ("10.1.2.3", "0"), ("10.1.2.3", "65536"), ("10.1.2.3", "-1"),
            ("10.1.2.3", "+80"), ("10.1.2.3", "063790"), ("a b", "6379"), ("a\u{0}b", "6379"), ("é", "6379"),
            (String(repeating: "h", count: 256), "6379"),
        ]
        for (host, port) in refused {
            XCTAssertNil(RedisSentinelLookup.address(host: Data(host.utf8), port: Data(port.utf8)), "\(host):\(port)")
        }
    }

    func testReadOnlyRepliesAreFoundInTransactions() {
        let readOnly = RedisReply.error("READONLY You can't write against a read only replica.")
        XCTAssertTrue(readOnly.isReadOnlyError)
        XCTAssertTrue(RedisReply.array([.status("OK"), readOnly]).isReadOnlyError)
        XCTAssertFalse(RedisReply.error("OOM command not allowed").isReadOnlyError)
        XCTAssertFalse(RedisReply.bytes(Data("READONLY".utf8)).isReadOnlyError)
        XCTAssertFalse(RedisReply.array([.null, .integer(1)]).isReadOnlyError)
    }
}
