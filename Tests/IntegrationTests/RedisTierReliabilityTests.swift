import Foundation
import XCTest

@testable import ImgCache

/// The Redis tier against Debian's redis-server (and nginx as the origin, whose access log counts
/// origin requests): authenticated values, freshness that does not depend on the writers' clocks,
/// compare-and-delete, lease renewal, the counters of leases not taken, and configurations that
/// fail their checks.
final class RedisTierReliabilityTests: RedisNginxTestCase {
    private let secret = Data((0..<32).map { UInt8($0 * 7 % 256) })

    /// A tier on the test's Redis with `secret`, whose clock is `skew` seconds off.
    private func tier(secret: Data?, skew: TimeInterval = 0, log: LogLines = LogLines()) throws -> RedisTier {
        var configuration = try RedisConfiguration(url: redis.url)
        configuration.secret = secret
        return RedisTier(configuration: configuration, log: log.hook, now: { Date().addingTimeInterval(skew) })
    }

    /// A pipeline with its own empty disk cache on the test's Redis with `secret`.
    private func pipeline(secret: Data?) throws -> ImagePipeline {
        var redisConfiguration = try RedisConfiguration(url: redis.url)
        redisConfiguration.secret = secret
        var configuration = ImagePipeline.Configuration(memoryCacheLimit: 0, redis: redisConfiguration)
        configuration.diskCache.root = temporaryFolder("imgcache-redis-reliability")
        return try ImagePipeline(configuration: configuration)
    }

    private func request(_ index: Int, width: Int = 32) -> ImageRequest {
        ImageRequest(url: nginx.url("/p\(index).jpg"), target: .pixels(PixelSize(width: width, height: width)))
    }

    private func keys(_ index: Int) -> RedisTier.Keys { RedisTier.Keys(cacheKey: nginx.url("/p\(index).jpg").absoluteString) }

    /// Writes `frame` under `key` as anyone who can write to Redis can.
    private func write(_ frame: Data, under key: String, milliseconds: Int = 3_600_000) throws {
        let client = RedisClient(configuration: try RedisConfiguration(url: redis.url), log: nil)
        let command = [Data("SET".utf8), Data(key.utf8), frame, Data("PX".utf8), Data(String(milliseconds).utf8)]
        XCTAssertEqual(client.run([command]), [.status("OK")])
    }

    func testForgedValuesAreMissesUnderASecretAndAreOverwritten() async throws {
        let original = try Data(contentsOf: nginx.root.appendingPathComponent("p0.jpg"))
        // A value with a valid CRC-32 but no tag under the secret: what anyone who can write to
        // Redis, or an instance without the secret, stores.
        let forged = RedisCacheValue(
            payload: try TestImage.jpeg(seed: 99), contentType: "image/jpeg", etag: nil, lastModified: nil,
            graceMilliseconds: 86_400_000)
        try write(try XCTUnwrap(forged.encoded(key: keys(0).value, seal: RedisValueSeal(secret: nil))), under: keys(0).value)
        let instance = try pipeline(secret: secret)
        let image = try await instance.image(for: request(0))
        XCTAssertEqual(image.cacheOutcome, .network, "the forged value is not served")
        let counters = try XCTUnwrap(instance.redisCounters)
        XCTAssertEqual(counters.rejected, 1)
        XCTAssertEqual(counters.hits, 0)
        XCTAssertEqual(counters.stores, 2, "the original, which overwrote the forgery, and the variant")
        XCTAssertEqual(try tier(secret: secret).cachedData(for: nginx.url("/p0.jpg").absoluteString)?.data(), original)
        let served = try await nginx.settledAccessLog()
        XCTAssertEqual(served.count, 1)
        // An instance without the secret cannot read what one with it wrote: one secret for all.
        XCTAssertNil(try tier(secret: nil).cachedData(for: nginx.url("/p0.jpg").absoluteString))
        XCTAssertNil(try tier(secret: Data(repeating: 1, count: 32)).cachedData(for: nginx.url("/p0.jpg").absoluteString))
    }

    func testAValueCopiedToAnotherKeyIsRejected() throws {
        let writer = try tier(secret: secret)
        let data = CachedData(data: Data("first".utf8), contentType: "image/jpeg", expiresAt: Date().addingTimeInterval(600))
        XCTAssertNotNil(writer.storeData(data, for: nginx.url("/p0.jpg").absoluteString, kind: .original))
        let client = RedisClient(configuration: try RedisConfiguration(url: redis.url), log: nil)
        let copy = client.run([[Data("COPY".utf8), Data(keys(0).value.utf8), Data(keys(1).value.utf8)]])
        XCTAssertEqual(copy, [.integer(1)])
        let reader = try tier(secret: secret)
        XCTAssertEqual(try reader.cachedData(for: nginx.url("/p0.jpg").absoluteString)?.data(), Data("first".utf8))
        XCTAssertNil(reader.cachedData(for: nginx.url("/p1.jpg").absoluteString), "the tag covers the key")
        XCTAssertEqual(reader.counters, RedisTierCounters(hits: 1, misses: 1, rejected: 1))
    }

    func testFreshnessIsTheKeysTTLWhateverTheWritersClock() throws {
        let key = nginx.url("/p0.jpg").absoluteString
        for skew: TimeInterval in [3600, -3600] {
            // A writer whose clock is an hour off stores a copy fresh for 60 s by its own clock.
            let writer = try tier(secret: secret, skew: skew)
            let writerNow = Date().addingTimeInterval(skew)
            let data = CachedData(data: Data("bytes".utf8), contentType: "image/jpeg", expiresAt: writerNow.addingTimeInterval(60))
            XCTAssertNotNil(writer.storeData(data, for: key, kind: .original))
            let ttl = try XCTUnwrap(Int(redis.cli("PTTL", keys(0).value)))
            XCTAssertEqual(Double(ttl) / 1000, 60 + 86_400, accuracy: 1)
            // A reader with the right clock finds it fresh for 60 s, not 60 s plus or minus an hour.
            let found = try XCTUnwrap(try tier(secret: secret).cachedData(for: key))
            XCTAssertEqual(try XCTUnwrap(found.expiresAt).timeIntervalSinceNow, 60, accuracy: 1, "writer \(skew) s off")
            // So does a reader whose own clock is off, by its own clock.
            let skewed = try XCTUnwrap(try tier(secret: secret, skew: -skew).cachedData(for: key))
            XCTAssertEqual(try XCTUnwrap(skewed.expiresAt).timeIntervalSince(Date().addingTimeInterval(-skew)), 60, accuracy: 1)
        }
        // A copy stored stale (a 304 is due) stays stale for readers, for its grace period.
        let stale = CachedData(data: Data("old".utf8), etag: "\"v1\"", expiresAt: Date().addingTimeInterval(-30))
        XCTAssertNotNil(try tier(secret: nil).storeData(stale, for: key, kind: .original))
        let reader = try tier(secret: nil)
        let found = try XCTUnwrap(reader.cachedData(for: key))
        XCTAssertEqual(try XCTUnwrap(found.expiresAt).timeIntervalSinceNow, -30, accuracy: 1)
        XCTAssertEqual(found.etag, "\"v1\"")
        XCTAssertEqual(reader.counters, RedisTierCounters(misses: 1), "a stale copy is a miss")
        // A copy that never expires keeps no expiry, and its key the grace period.
        XCTAssertNotNil(try tier(secret: nil).storeData(CachedData(data: Data("forever".utf8)), for: key, kind: .original))
        XCTAssertNil(try XCTUnwrap(try tier(secret: nil).cachedData(for: key)).expiresAt)
        XCTAssertEqual(Double(try XCTUnwrap(Int(redis.cli("PTTL", keys(0).value)))) / 1000, 86_400, accuracy: 1)
        // A key without a TTL was not written by this tier: rejected.
        XCTAssertEqual(try redis.cli("PERSIST", keys(0).value), "1")
        let persisted = try tier(secret: nil)
        XCTAssertNil(persisted.cachedData(for: key))
        XCTAssertEqual(persisted.counters, RedisTierCounters(misses: 1, rejected: 1))
    }

    func testRemoveIfHoldingSparesAValueStoredMeanwhile() throws {
        let key = nginx.url("/p0.jpg").absoluteString
        let tier = try tier(secret: secret)
        let damaged = CachedData(data: Data("not an image".utf8), contentType: "image/jpeg", expiresAt: Date().addingTimeInterval(600))
        XCTAssertNotNil(tier.storeData(damaged, for: key, kind: .original))
        let read = try XCTUnwrap(tier.cachedData(for: key))
        // Another instance stores a good value meanwhile: it survives.
        let good = CachedData(data: try TestImage.jpeg(), contentType: "image/jpeg", expiresAt: Date().addingTimeInterval(600))
        XCTAssertNotNil(try self.tier(secret: secret).storeData(good, for: key, kind: .original))
        tier.removeData(for: key, ifHolding: read)
        XCTAssertEqual(try tier.cachedData(for: key)?.data(), try good.data())
        // The same payload with other metadata, stored again, is removed; then nothing is left to remove.
        var again = damaged
        again.etag = "\"other\""
        XCTAssertNotNil(tier.storeData(again, for: key, kind: .original))
        tier.removeData(for: key, ifHolding: read)
        XCTAssertEqual(try redis.cli("EXISTS", keys(0).value), "0")
        XCTAssertFalse(tier.remove(keys(0), ifHolding: try read.data()))
        // A payload that is a suffix or a prefix of the stored one is not it.
        XCTAssertNotNil(tier.storeData(damaged, for: key, kind: .original))
        XCTAssertFalse(tier.remove(keys(0), ifHolding: Data("an image".utf8)))
        XCTAssertFalse(tier.remove(keys(0), ifHolding: Data("not an imag".utf8)))
        XCTAssertEqual(try redis.cli("EXISTS", keys(0).value), "1")
        XCTAssertEqual(tier.counters.errors, 0)
    }

    func testLeasesAreRenewedOnlyByTheirHolder() throws {
        let key = nginx.url("/p0.jpg").absoluteString
        let holder = try tier(secret: nil)
        guard case .acquired(let token) = holder.acquireLease(forCacheKey: key).attempt else { return XCTFail("no lease") }
        // Most of its TTL gone: a renewal gives it the whole TTL (10 s) again.
        XCTAssertEqual(try redis.cli("PEXPIRE", keys(0).lease, "500"), "1")
        XCTAssertTrue(holder.renewLease(forCacheKey: key, token: token))
        XCTAssertGreaterThan(try XCTUnwrap(Int(redis.cli("PTTL", keys(0).lease))), 9000)
        XCTAssertFalse(holder.renewLease(forCacheKey: key, token: "another instance's"))
        XCTAssertEqual(try redis.cli("GET", keys(0).lease), token)
        // Once it lapsed and another instance took it, the first holder's renewal fails.
        XCTAssertEqual(try redis.cli("SET", keys(0).lease, "next holder", "PX", "60000"), "OK")
        XCTAssertFalse(holder.renewLease(forCacheKey: key, token: token))
        XCTAssertEqual(try redis.cli("GET", keys(0).lease), "next holder")
        holder.releaseLease(forCacheKey: key, token: token)
        XCTAssertEqual(try redis.cli("GET", keys(0).lease), "next holder")
        XCTAssertEqual(holder.counters, RedisTierCounters())
        XCTAssertEqual(holder.leaseTiming.ttl, 10)
        XCTAssertEqual(holder.leaseTiming.waitLimit, 120)
    }

    func testLeasesNotTakenAreCountedAndShownInTheSharedCounters() throws {
        let key = nginx.url("/p0.jpg").absoluteString
        // Full (noeviction): SET NX is refused with -OOM.
        try redis.cli("CONFIG", "SET", "maxmemory-policy", "noeviction")
        try redis.cli("CONFIG", "SET", "maxmemory", "1")
        let full = try tier(secret: nil)
        XCTAssertEqual(full.acquireLease(forCacheKey: key).attempt, .unavailable)
        XCTAssertEqual(full.counters, RedisTierCounters(errors: 1, leasesUnavailable: 1))
        try redis.cli("CONFIG", "SET", "maxmemory", "0")
        // Unreachable.
        let absent = RedisTier(configuration: try RedisConfiguration(url: "redis://127.0.0.1:\(try NginxServer.freePort())/0"))
        XCTAssertEqual(absent.acquireLease(forCacheKey: key).attempt, .unavailable)
        XCTAssertEqual(absent.counters, RedisTierCounters(errors: 1, leasesUnavailable: 1))
        // The counters reach imgcache:stats with the next command, and read back through HMGET,
        // whatever else the hash holds.
        full.flushCounters()
        try redis.cli("HSET", RedisTier.statsKey(shard: 0), "junk", String(repeating: "j", count: 100_000))
        XCTAssertEqual(try tier(secret: nil).sharedCounters(), RedisTierCounters(errors: 1, leasesUnavailable: 1))
    }

    func testAnInvalidConfigurationServesWithoutRedisAndWarnsOnce() throws {
        var configuration = try RedisConfiguration(url: redis.url)
        // Past Int32: the old tier trapped converting it for hiredis.
        configuration.deployment = .server(RedisAddress(host: "127.0.0.1", port: 1 << 40))
        let log = LogLines()
        let tier = RedisTier(configuration: configuration, log: log.hook)
        XCTAssertNil(tier.cachedData(for: "http://origin.example/a.jpg"))
        XCTAssertNil(tier.storeData(CachedData(data: Data("x".utf8)), for: "http://origin.example/a.jpg", kind: .original))
        XCTAssertEqual(tier.acquireLease(forCacheKey: "http://origin.example/a.jpg").attempt, .unavailable)
        XCTAssertNil(tier.sharedCounters())
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        XCTAssertTrue(log.all[0].contains("is not used: invalid argument: Redis port 1099511627776 is not in 1...65535"), log.all[0])
        XCTAssertEqual(tier.counters, RedisTierCounters(errors: 4, leasesUnavailable: 1))
    }

    func testATricklingRedisFallsBackToTheOrigin() async throws {
        let trickling = try FakeRedisServer(mode: .trickle)
        defer { trickling.stop() }
        var redisConfiguration = try RedisConfiguration(url: trickling.url)
        redisConfiguration.commandTimeout = 0.2
        let log = LogLines()
        var configuration = ImagePipeline.Configuration(memoryCacheLimit: 0, redis: redisConfiguration, log: log.hook)
        configuration.diskCache.root = temporaryFolder("imgcache-redis-trickle")
        let instance = try ImagePipeline(configuration: configuration)
        let start = Date()
        let result = try await instance.prepare(request(0))
        let elapsed = Date().timeIntervalSince(start)
        print("request with a trickling Redis: \(String(format: "%.3f", elapsed)) s")
        XCTAssertEqual(result.cacheOutcome, .network)
        // One command time-out, then Redis is skipped (the old tier waited 10 s for the trickle).
        XCTAssertLessThan(elapsed, 3)
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        XCTAssertGreaterThan(try XCTUnwrap(instance.redisCounters?.leasesUnavailable), 0)
        let served = try await nginx.settledAccessLog()
        XCTAssertEqual(served.map(\.path), ["/p0.jpg"])
        XCTAssertTrue(trickling.events().contains("command 1 GETRANGE"), "\(trickling.events())")
    }
}
