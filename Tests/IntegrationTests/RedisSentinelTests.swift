import Foundation
import XCTest

@testable import ImgCache

/// The Redis tier behind a Sentinel set of Debian's redis-server (`RedisSentinelSet`): the master
/// found through the sentinels, a killed master replaced by its replica without a call failing or
/// waiting past its bound, and a master demoted by a failover let go at its first `-READONLY`.
final class RedisSentinelTests: XCTestCase {
    var set: RedisSentinelSet!

    override func setUp() async throws {
        set = try RedisSentinelSet()
    }

    override func tearDown() async throws {
        set?.stop()
    }

    private func tier(url: String? = nil, log: LogLines) throws -> RedisTier {
        RedisTier(configuration: try RedisConfiguration(url: url ?? set.url), log: log.hook)
    }

    private func value(_ text: String) -> CachedData {
        CachedData(data: Data(text.utf8), contentType: "image/jpeg", expiresAt: Date().addingTimeInterval(600))
    }

    /// The Redis key of test value `name`'s original.
    private func key(_ name: String) -> String { RedisTier.Keys(cacheKey: "https://example.com/\(name)").value }

    private func store(_ tier: RedisTier, _ name: String) -> Bool {
        tier.storeData(value(name), for: "https://example.com/\(name)", kind: .original) != nil
    }

    private func read(_ tier: RedisTier, _ name: String) throws -> Data? {
        try tier.cachedData(for: "https://example.com/\(name)")?.data()
    }

    /// The count of writes a node refused with `-READONLY` (0 when it refused none).
    private func readOnlyRefusals(_ port: Int) throws -> Int {
        let lines = try set.cli(port, "INFO", "errorstats").split(whereSeparator: \.isNewline)
        guard let line = lines.first(where: { $0.hasPrefix("errorstat_READONLY:count=") }) else { return 0 }
        return try XCTUnwrap(Int(line.dropFirst("errorstat_READONLY:count=".count)), String(line))
    }

    func testTheMasterIsFoundThroughTheSentinelsPastOneThatIsDown() throws {
        let master = try set.masterPort()
        XCTAssertEqual(master, set.nodePorts[0])
        // Nothing listens on the first sentinel's port: the next one is asked.
        let url = set.url.replacingOccurrences(of: "redis-sentinel://", with: "redis-sentinel://127.0.0.1:\(try NginxServer.freePort()),")
        let log = LogLines()
        let tier = try tier(url: url, log: log)
        defer { tier.close() }
        XCTAssertTrue(store(tier, "a"))
        XCTAssertEqual(try read(tier, "a"), Data("a".utf8))
        XCTAssertEqual(try set.cli(master, "EXISTS", key("a")), "1", "written to the master")
        try set.waitForKey(key("a"), on: set.nodePorts[1])
        XCTAssertEqual(log.all, [])
    }

    func testTheSentinelThatAnsweredIsAskedFirstNextTime() throws {
        // A first sentinel that closes every connection: passed over once, then not asked again.
        let broken = try FakeRedisServer(mode: .close)
        defer { broken.stop() }
        let sentinels = [RedisAddress(host: "127.0.0.1", port: broken.port)]
            + set.sentinelPorts.map { RedisAddress(host: "127.0.0.1", port: $0) }
        let lookup = RedisSentinelLookup(
            sentinels: sentinels, masterName: RedisSentinelSet.masterName, configuration: try RedisConfiguration(url: set.url))
        for _ in 0..<3 {
            XCTAssertEqual(try lookup.master(), RedisAddress(host: "127.0.0.1", port: set.nodePorts[0]))
        }
        XCTAssertEqual(broken.events().filter { $0.hasPrefix("connect ") }.count, 1, "\(broken.events())")
    }

    func testTheCommandLineSharesThroughTheSentinelsAndRefusesBadURLs() throws {
        let origin = try FaultServer()
        defer { origin.stop() }
        let folder = try ServerProcess.temporaryFolder("imgcache-sentinel-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (cache, outcome) in [("a", "network"), ("b", "shared")] {
            let result = try CommandRunner.run("imgcache", [
                "fetch", origin.url("/ok.jpg").absoluteString, "--size", "16x16", "--json", "--redis", set.url,
                "--cache-dir", folder.appendingPathComponent(cache).path,
            ])
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertEqual(result.errors, "")
            XCTAssertEqual(try CommandRunner.json(result.output)["cache"] as? String, outcome, cache)
        }
        let stats = try CommandRunner.imgcache(
            ["cache", "stats", "--json", "--cache-dir", folder.appendingPathComponent("b").path], environment: ["IMGCACHE_REDIS": set.url])
        XCTAssertEqual(stats.status, 0, stats.errors)
        let counters = try XCTUnwrap(CommandRunner.json(stats.output)["redis"] as? [String: Any])
        XCTAssertEqual(counters["stores"] as? Int, 2, "the original and the variant")
        XCTAssertEqual(counters["hits"] as? Int, 1)
        let sentinels = set.sentinelPorts.map { "127.0.0.1:\($0)" }.joined(separator: ",")
        for bad in ["redis-sentinel://\(sentinels)", "redis-sentinel://\(sentinels)/a%20b", "redis-sentinel://\(sentinels)/m/16"] {
            let result = try CommandRunner.run("imgcache", [
                "fetch", origin.url("/ok.jpg").absoluteString, "--redis", bad, "--cache-dir", folder.appendingPathComponent("c").path,
            ])
            XCTAssertEqual(result.status, 2, "\(bad): \(result.errors)")
            XCTAssertTrue(result.errors.contains(bad), result.errors)
        }
    }

    func testAnUnknownMasterNameIsAMissWithOneWarning() throws {
        let log = LogLines()
        let url = set.url.replacingOccurrences(of: "/\(RedisSentinelSet.masterName)", with: "/no-such-master")
        let tier = try tier(url: url, log: log)
        defer { tier.close() }
        for name in ["a", "b", "c"] {
            XCTAssertFalse(store(tier, name))
            XCTAssertNil(try read(tier, name))
        }
        XCTAssertFalse(tier.answers())
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        XCTAssertTrue(log.all.first?.contains("knows no master 'no-such-master'") ?? false, "\(log.all)")
        XCTAssertEqual(try set.cli(set.nodePorts[0], "DBSIZE"), "0")
    }

    func testAKilledMasterIsReplacedByItsReplicaWithoutAFailedOrLateCall() throws {
        let (oldMaster, replica) = (set.nodePorts[0], set.nodePorts[1])
        let log = LogLines()
        let tier = try tier(log: log)
        defer { tier.close() }
        XCTAssertTrue(store(tier, "before"))
        try set.waitForKey(key("before"), on: replica)
        set.kill(oldMaster)
        let killed = Date()
        // Store and read until a store lands on the new master; each call is bounded by the
        // time-outs: a lookup waited for at most 50 + 100 ms, a round trip at most 100 ms.
        var recovered: Date?
        var slowest: TimeInterval = 0
        var attempt = 0
        while recovered == nil, Date().timeIntervalSince(killed) < 30 {
            attempt += 1
            let start = Date()
            let stored = store(tier, "during-\(attempt)")
            _ = try read(tier, "before")
            slowest = max(slowest, Date().timeIntervalSince(start))
            if stored { recovered = Date() }
            usleep(20_000)
        }
        let outage = try XCTUnwrap(recovered, "the tier never came back").timeIntervalSince(killed)
        print("killed master: tier back after \(String(format: "%.2f", outage)) s, \(attempt) attempts, "
            + "slowest store and read \(Int(slowest * 1000)) ms")
        XCTAssertLessThan(slowest, 1, "no call waits much past the time-outs")
        XCTAssertEqual(try set.masterPort(), replica)
        XCTAssertEqual(try set.cli(replica, "EXISTS", key("during-\(attempt)")), "1", "the store went to the new master")
        XCTAssertEqual(try read(tier, "before"), Data("before".utf8), "what the old master had replicated is still there")
        XCTAssertEqual(log.all.count, 1, "one warning for the outage: \(log.all)")
        // The old master comes back empty and is made a replica of the new one: never written to.
        try set.restart(oldMaster)
        try set.waitForReplica(oldMaster, of: replica)
        for index in 0..<20 { XCTAssertTrue(store(tier, "after-\(index)")) }
        XCTAssertEqual(try readOnlyRefusals(oldMaster), 0)
        try set.waitForKey(key("after-19"), on: oldMaster)
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
    }

    func testADemotedMasterIsLetGoAtItsFirstReadOnlyAnswer() throws {
        let (oldMaster, replica) = (set.nodePorts[0], set.nodePorts[1])
        let log = LogLines()
        let tier = try tier(log: log)
        defer { tier.close() }
        XCTAssertTrue(store(tier, "before"))
        // A failover with the old master alive: the sentinels make it a replica of the new one.
        XCTAssertEqual(try set.cli(set.sentinelPorts[0], "SENTINEL", "FAILOVER", RedisSentinelSet.masterName), "OK")
        try set.waitForMaster(replica)
        try set.waitForReplica(oldMaster, of: replica)
        // The tier still holds the old master's address: its next write there is refused
        // (READONLY), it lets that node go and finds the new master.
        XCTAssertFalse(store(tier, "refused"))
        // The SET and the counter increments sent with it, in one round trip.
        let refused = try readOnlyRefusals(oldMaster)
        XCTAssertGreaterThan(refused, 0)
        let deadline = Date().addingTimeInterval(10)
        var stored = false
        while !stored, Date() < deadline {
            stored = store(tier, "after")
            if !stored { usleep(20_000) }
        }
        XCTAssertTrue(stored)
        XCTAssertEqual(try set.cli(replica, "EXISTS", key("after")), "1")
        for index in 0..<20 { XCTAssertTrue(store(tier, "more-\(index)")) }
        XCTAssertEqual(try readOnlyRefusals(oldMaster), refused, "no write went to the demoted master again")
        XCTAssertEqual(try read(tier, "before"), Data("before".utf8))
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        XCTAssertTrue(log.all.first?.contains("READONLY") ?? false, "\(log.all)")
    }
}
