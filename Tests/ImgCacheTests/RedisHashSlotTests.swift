import Foundation
import XCTest

@testable import ImgCache

/// Redis Cluster's key routing: CRC16 (XMODEM), hash tags, the slot map of `CLUSTER SLOTS` and
/// the redirects `-MOVED` and `-ASK`.
final class RedisHashSlotTests: XCTestCase {
    func testCRC16MatchesTheClusterSpecificationsVectors() {
        XCTAssertEqual(RedisHashSlot.crc16(Array("123456789".utf8)), 0x31C3)
        XCTAssertEqual(RedisHashSlot.crc16([UInt8]()), 0)
        XCTAssertEqual(RedisHashSlot.crc16(Array("A".utf8)), 0x58E5)
    }

    /// Answers of Debian's redis-server 7.0 to `CLUSTER KEYSLOT` (IntegrationTests'
    /// `RedisClusterTests` asks a live node for many more).
    func testSlotsAreRedisesKeyslotAnswers() {
        let answers: [(String, Int)] = [
            ("foo", 12182), ("bar", 5061), ("hello", 866), ("123456789", 12739), ("", 0), ("\u{E9}", 10180),
            ("imgcache:v:{0123456789abcdef0123456789abcdef}", 1829), ("imgcache:stats:{0}", 13907),
        ]
        for (key, slot) in answers {
            XCTAssertEqual(RedisHashSlot.slot(of: key), slot, key)
        }
    }

    func testHashTagRules() {
        // The same tag, the same slot.
        XCTAssertEqual(RedisHashSlot.slot(of: "{user1000}.following"), 3443)
        XCTAssertEqual(RedisHashSlot.slot(of: "{user1000}.followers"), 3443)
        // An empty tag hashes the whole key; the first "{" and the first "}" after it count.
        XCTAssertEqual(RedisHashSlot.slot(of: "foo{}{bar}"), 8363)
        XCTAssertEqual(RedisHashSlot.slot(of: "foo{{bar}}zap"), 4015)
        XCTAssertEqual(String(decoding: RedisHashSlot.hashTag(of: Array("foo{{bar}}zap".utf8)), as: UTF8.self), "{bar")
        XCTAssertEqual(RedisHashSlot.slot(of: "foo{bar}{zap}"), RedisHashSlot.slot(of: "bar"))
        // No closing brace, or braces the wrong way round: the whole key.
        XCTAssertEqual(RedisHashSlot.slot(of: "a{b"), 13340)
        XCTAssertEqual(RedisHashSlot.slot(of: "{"), 4092)
        XCTAssertEqual(RedisHashSlot.slot(of: "{}"), 15257)
        XCTAssertEqual(RedisHashSlot.slot(of: "}{a}"), 15495)
        // Every key of one cache key shares a slot.
        let keys = RedisTier.Keys(cacheKey: "https://example.com/a.jpg|fit 100x100")
        XCTAssertEqual(RedisHashSlot.slot(of: keys.value), RedisHashSlot.slot(of: keys.lease))
    }

    func testTheCounterShardsSpreadOverThreeMasters() {
        // redis-cli --cluster create gives 3 masters 0-5460, 5461-10922 and 10923-16383.
        var perMaster = [0, 0, 0]
        for shard in 0..<RedisTier.statsShardCount {
            perMaster[min(RedisHashSlot.slot(of: RedisTier.statsKey(shard: shard)) / 5461, 2)] += 1
        }
        XCTAssertEqual(perMaster, [6, 6, 4])
    }

    private func node(_ host: String, _ port: Int) -> RedisReply {
        .array([.bytes(Data(host.utf8)), .integer(port), .bytes(Data("0123abcd".utf8))])
    }

    func testTheSlotMapIsReadFromClusterSlots() throws {
        let answered = RedisAddress(host: "10.0.0.9", port: 7000)
        let reply = RedisReply.array([
            .array([.integer(0), .integer(5460), node("10.0.0.1", 7001), node("10.0.0.4", 7004)]),
            .array([.integer(5461), .integer(10922), node("", 7002)]),
            .array([.integer(10923), .integer(16000), node("?", 7003)]),
        ])
        let map = try XCTUnwrap(RedisSlotMap(slotsReply: reply, from: answered))
        XCTAssertEqual(map.master(of: 0), RedisAddress(host: "10.0.0.1", port: 7001))
        XCTAssertEqual(map.master(of: 5460), RedisAddress(host: "10.0.0.1", port: 7001))
        // An empty host is the node that answered; an unknown one ("?") serves nothing.
        XCTAssertEqual(map.master(of: 5461), RedisAddress(host: "10.0.0.9", port: 7002))
        XCTAssertNil(map.master(of: 10923))
        XCTAssertNil(map.master(of: 16383))
        XCTAssertEqual(map.masters.count, 2)
        var moved = map
        moved.assign(0, to: RedisAddress(host: "10.0.0.4", port: 7004))
        XCTAssertEqual(moved.master(of: 0), RedisAddress(host: "10.0.0.4", port: 7004))
        XCTAssertEqual(moved.master(of: 1), RedisAddress(host: "10.0.0.1", port: 7001))
    }

    func testHostileSlotRepliesAreRefused() {
        let from = RedisAddress(host: "127.0.0.1", port: 7000)
        let full = RedisReply.array([.integer(0), .integer(16383), node("h", 1)])
        for (name, reply) in [
            ("not an array", RedisReply.status("OK")),
            ("backwards", .array([.array([.integer(10), .integer(9), node("h", 1)])])),
            ("past the last slot", .array([.array([.integer(0), .integer(16384), node("h", 1)])])),
            ("negative", .array([.array([.integer(-1), .integer(3), node("h", 1)])])),
            ("port 0", .array([.array([.integer(0), .integer(3), node("h", 0)])])),
            ("port past 65535", .array([.array([.integer(0), .integer(3), node("h", 65_536)])])),
            ("no master", .array([.array([.integer(0), .integer(3)])])),
            ("more slots than there are", .array([full, full])),
            ("a host that is a number", .array([.array([.integer(0), .integer(3), .array([.integer(1), .integer(1)])])])),
        ] {
            XCTAssertNil(RedisSlotMap(slotsReply: reply, from: from), name)
        }
    }

    func testRedirectsAreParsed() {
        let node = RedisAddress(host: "10.0.0.1", port: 7000)
        XCTAssertEqual(RedisRedirect(error: "MOVED 3999 127.0.0.1:6381", from: node).map { [$0.kind == .moved, $0.slot == 3999] }, [true, true])
        XCTAssertEqual(RedisRedirect(error: "MOVED 3999 127.0.0.1:6381", from: node)?.address, RedisAddress(host: "127.0.0.1", port: 6381))
        XCTAssertEqual(RedisRedirect(error: "ASK 12 :7002", from: node)?.address, RedisAddress(host: "10.0.0.1", port: 7002))
        XCTAssertEqual(RedisRedirect(error: "ASK 12 :7002", from: node)?.kind, .ask)
        XCTAssertEqual(RedisRedirect(error: "MOVED 1 ::1:7002", from: node)?.address, RedisAddress(host: "::1", port: 7002))
        for text in ["MOVED", "MOVED 16384 h:1", "MOVED 1 h:0", "MOVED 1 h", "MOVED x h:1", "ERR MOVED 1 h:1", "READONLY You can't write"] {
            XCTAssertNil(RedisRedirect(error: text, from: node), text)
        }
        let replies: [RedisReply] = [.status("OK"), .error("ASK 7 h:2"), .error("EXECABORT Transaction discarded")]
        XCTAssertEqual(RedisRedirect(in: replies, from: node)?.address, RedisAddress(host: "h", port: 2))
        XCTAssertNil(RedisRedirect(in: [.error("OOM command not allowed")], from: node))
    }
}
