import Foundation
import XCTest

@testable import ImgCache

/// The shared Redis tier under the local caches, with Debian's nginx as the origin (its access
/// log counts origin requests) and Debian's redis-server, both started on 127.0.0.1 by the test.
final class RedisTierTests: RedisNginxTestCase {

    /// A pipeline with its own empty disk cache, sharing `redisURL` (the test's server by default).
    private func pipeline(
        redisURL: String? = nil, log: LogLines = LogLines(), ttl: TimeInterval = 3600, maxValueBytes: Int = 8 << 20
    ) throws -> ImagePipeline {
        let folder = temporaryFolder("imgcache-redis")
        var redisConfiguration = try RedisConfiguration(url: redisURL ?? redis.url)
        redisConfiguration.retryAfterFailure = 0.2
        redisConfiguration.retryAfterFailureMax = 0.4
        redisConfiguration.maxValueBytes = maxValueBytes
        var configuration = ImagePipeline.Configuration(memoryCacheLimit: 0, redis: redisConfiguration, log: log.hook)
        configuration.diskCache.root = folder
        configuration.loading.defaultTTL = ttl
        return try ImagePipeline(configuration: configuration)
    }

    private func request(_ index: Int, width: Int = 32) -> ImageRequest {
        ImageRequest(url: nginx.url("/p\(index).jpg"), target: .pixels(PixelSize(width: width, height: width)))
    }

    private func originalKey(_ index: Int) -> String { RedisTier.Keys(cacheKey: nginx.url("/p\(index).jpg").absoluteString).value }

    func testSecondInstanceIsServedFromRedisWithoutAnOriginRequest() async throws {
        let first = try pipeline(), second = try pipeline()
        let made = try await first.prepare(request(0))
        XCTAssertEqual(made.cacheOutcome, .network)
        let servedFirst = try await nginx.settledAccessLog()
        XCTAssertEqual(servedFirst.count, 1)
        // The same variant: from Redis, stored in the second instance's disk cache.
        let shared = try await second.prepare(request(0))
        XCTAssertEqual(shared.cacheOutcome, .shared)
        XCTAssertEqual(try Data(contentsOf: XCTUnwrap(shared.fileURL)), try Data(contentsOf: XCTUnwrap(made.fileURL)))
        // Another size: the original from Redis, with its validators and expiry, rendered here.
        let other = try await second.image(for: request(0, width: 20))
        XCTAssertEqual(other.cacheOutcome, .shared)
        XCTAssertEqual(other.image.size, PixelSize(width: 20, height: 15))
        let original = try XCTUnwrap(second.diskCache.entry(for: nginx.url("/p0.jpg").absoluteString))
        let firstOriginal = try XCTUnwrap(first.diskCache.entry(for: nginx.url("/p0.jpg").absoluteString))
        XCTAssertEqual(original.etag, firstOriginal.etag)
        XCTAssertNotNil(original.etag)
        XCTAssertEqual(original.lastModified, firstOriginal.lastModified)
        XCTAssertEqual(original.contentType, "image/jpeg")
        // The same expiry, from the key's remaining TTL (milliseconds, read a round trip later).
        XCTAssertEqual(try XCTUnwrap(original.expiresAt).timeIntervalSince(XCTUnwrap(firstOriginal.expiresAt)), 0, accuracy: 0.05)
        // Served locally from now on.
        let again = try await second.prepare(request(0, width: 20))
        XCTAssertEqual(again.cacheOutcome, .disk)
        let servedInAll = try await nginx.settledAccessLog()
        XCTAssertEqual(servedInAll.count, 1, "one origin request in all")
        XCTAssertEqual(first.redisCounters, RedisTierCounters(hits: 0, misses: 2, stores: 2, errors: 0))
        XCTAssertEqual(second.redisCounters, RedisTierCounters(hits: 2, misses: 1, stores: 1, errors: 0))
        // Redis lives as long as the freshness plus the grace period (1 hour + 1 day here).
        let ttl = try XCTUnwrap(Int(redis.cli("PTTL", originalKey(0))))
        XCTAssertEqual(Double(ttl) / 1000, 3600 + 86_400, accuracy: 10)
    }

    func testStaleValueFromRedisIsRevalidatedWithItsValidators() async throws {
        // Stale as soon as it is stored: fresh for no time.
        let first = try pipeline(ttl: 0)
        _ = try await first.prepare(request(1))
        let second = try pipeline(ttl: 3600)
        let revalidated = try await second.prepare(request(1))
        XCTAssertEqual(revalidated.cacheOutcome, .revalidated)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.status), [200, 304])
        XCTAssertNotNil(log[1].ifNoneMatch)
        // The 304's new expiry (an hour) went back to Redis: a third instance finds it fresh.
        let third = try pipeline(ttl: 0)
        let shared = try await third.prepare(request(1, width: 16))
        XCTAssertEqual(shared.cacheOutcome, .shared)
        let served = try await nginx.settledAccessLog()
        XCTAssertEqual(served.count, 2)
    }

    func testGarbageAndTruncatedValuesAreMissesAndOverwritten() async throws {
        let first = try pipeline()
        _ = try await first.prepare(request(2))
        let client = RedisClient(configuration: try RedisConfiguration(url: redis.url), log: nil)
        guard case .bytes(let frame)? = client.run([[Data("GET".utf8), Data(originalKey(2).utf8)]])?.first else {
            return XCTFail("no frame stored")
        }
        // A well-formed frame longer than the tier's cap (8 MiB) is read only up to the cap: a miss.
        let oversized = try XCTUnwrap(
            RedisCacheValue(payload: Data(count: 9 << 20), contentType: nil, etag: nil, lastModified: nil, graceMilliseconds: nil)
                .encoded(key: originalKey(2), seal: RedisValueSeal(secret: nil)))
        for (attempt, damaged) in [Data("garbage".utf8), frame.prefix(frame.count - 1), frame.prefix(10), oversized].enumerated() {
            XCTAssertEqual(client.run([[Data("SET".utf8), Data(originalKey(2).utf8), damaged, Data("PX".utf8), Data("60000".utf8)]]), [.status("OK")])
            let fresh = try pipeline()
            let result = try await fresh.image(for: request(2, width: 24 + attempt))
            XCTAssertEqual(result.cacheOutcome, .network, "damaged value \(attempt) is a miss")
            XCTAssertEqual(fresh.redisCounters?.hits, 0)
            XCTAssertEqual(fresh.redisCounters?.rejected, 1)
            // Overwritten by the download: valid again.
            XCTAssertEqual(
                try fresh.redis?.cachedData(for: nginx.url("/p2.jpg").absoluteString)?.data(),
                try Data(contentsOf: nginx.root.appendingPathComponent("p2.jpg")))
        }
        let served = try await nginx.settledAccessLog()
        XCTAssertEqual(served.count, 5)
    }

    func testRedisAbsentKilledAndRestartedNeverFailsARequest() async throws {
        // Absent from the start.
        let absentLog = LogLines()
        let absent = try pipeline(redisURL: "redis://127.0.0.1:\(try NginxServer.freePort())/0", log: absentLog)
        var start = Date()
        for index in 0..<3 { _ = try await absent.prepare(request(index)) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertEqual(absentLog.all.count, 1, "\(absentLog.all)")
        XCTAssertGreaterThan(absent.redisCounters?.errors ?? 0, 0)

        // Killed mid-run, then restarted.
        let log = LogLines()
        let instance = try pipeline(log: log)
        _ = try await instance.prepare(request(0, width: 10))
        redis.stop()
        start = Date()
        for index in 0..<3 { _ = try await instance.prepare(request(index, width: 11)) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        try redis.start()
        // Once the back-off (at most 0.4 s here) has passed, values are stored again (60 s: a
        // bound that only ends a broken run).
        let stores = try XCTUnwrap(instance.redisCounters?.stores)
        let deadline = Date().addingTimeInterval(60)
        var width = 12
        while instance.redisCounters?.stores == stores && Date() < deadline {
            _ = try await instance.prepare(request(0, width: width))
            width += 1
            usleep(50_000)
        }
        XCTAssertGreaterThan(try XCTUnwrap(instance.redisCounters?.stores), stores)
        XCTAssertEqual(log.all.count, 1, "one warning for one outage: \(log.all)")
    }

    func testLocalFilesStayOutOfRedis() async throws {
        var configuration = ImagePipeline.Configuration(memoryCacheLimit: 0, redis: try RedisConfiguration(url: redis.url))
        configuration.diskCache.root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-redis-\(UUID().uuidString)")
        folders.append(configuration.diskCache.root)
        configuration.loading.allowsFileURLs = true
        let local = try ImagePipeline(configuration: configuration)
        let file = nginx.root.appendingPathComponent("p0.jpg")
        let result = try await local.prepare(ImageRequest(url: file, target: .pixels(PixelSize(width: 16, height: 16))))
        XCTAssertEqual(result.cacheOutcome, .network)
        XCTAssertEqual(local.redisCounters, RedisTierCounters())
        XCTAssertEqual(try redis.cli("DBSIZE"), "0", "a path means nothing on another host")
    }

    func testValuesOverTheCapAreNotStored() async throws {
        let large = try TestImage.jpeg(width: 400, height: 300)
        try large.write(to: nginx.root.appendingPathComponent("large.jpg"))
        let capped = try pipeline(maxValueBytes: 2048)
        let request = ImageRequest(url: nginx.url("/large.jpg"), target: .pixels(PixelSize(width: 16, height: 16)))
        let result = try await capped.prepare(request)
        XCTAssertEqual(result.cacheOutcome, .network)
        XCTAssertGreaterThan(large.count, 2048)
        XCTAssertLessThan(result.byteCount, 2048)
        XCTAssertEqual(try redis.cli("EXISTS", RedisTier.Keys(cacheKey: nginx.url("/large.jpg").absoluteString).value), "0")
        XCTAssertEqual(capped.redisCounters?.stores, 1, "the small variant only")
        XCTAssertEqual(capped.redisCounters?.errors, 0)
    }

    func testOutOfMemoryAndReadOnlyRedisNeverFailARequest() async throws {
        try redis.cli("CONFIG", "SET", "maxmemory-policy", "noeviction")
        try redis.cli("CONFIG", "SET", "maxmemory", "1")
        let log = LogLines()
        let full = try pipeline(log: log)
        let result = try await full.prepare(request(0))
        XCTAssertEqual(result.cacheOutcome, .network)
        XCTAssertEqual(full.redisCounters?.stores, 0)
        XCTAssertGreaterThan(full.redisCounters?.errors ?? 0, 0, "-OOM replies are counted")
        try redis.cli("CONFIG", "SET", "maxmemory", "0")

        // A replica is read-only: its -READONLY replies to SET are errors, not failures.
        try redis.cli("REPLICAOF", "127.0.0.1", String(try NginxServer.freePort()))
        let readOnly = try pipeline(log: log)
        let again = try await readOnly.prepare(request(1))
        XCTAssertEqual(again.cacheOutcome, .network)
        XCTAssertEqual(readOnly.redisCounters?.stores, 0)
        XCTAssertGreaterThan(readOnly.redisCounters?.errors ?? 0, 0)
        XCTAssertEqual(log.all, [], "error replies are not outages")
    }
}
