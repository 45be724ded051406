import Foundation
import XCTest

@testable import ImgCache

/// Leases on the Redis tier: one origin request per URL across instances, and waits that end
/// when the value arrives, the lease is released or expires, or the lease TTL passes.
final class RedisLeaseTests: RedisNginxTestCase {
    override var imageCount: Int { 10 }

    private func pipeline(leaseTTL: TimeInterval = 60, leaseWaitLimit: TimeInterval = 120) throws -> ImagePipeline {
        let folder = temporaryFolder("imgcache-lease")
        var redisConfiguration = try RedisConfiguration(url: redis.url)
        redisConfiguration.leaseTTL = leaseTTL
        redisConfiguration.leaseWaitLimit = leaseWaitLimit
        var configuration = ImagePipeline.Configuration(memoryCacheLimit: 0, redis: redisConfiguration)
        configuration.diskCache.root = folder
        return try ImagePipeline(configuration: configuration)
    }

    private func request(_ path: String) -> ImageRequest {
        ImageRequest(url: nginx.url(path), target: .pixels(PixelSize(width: 32, height: 32)))
    }

    private func leaseKey(_ path: String) -> String {
        RedisTier.Keys(cacheKey: nginx.url(path).absoluteString).lease
    }

    func testInstancesAtOnceMakeOneOriginRequestPerURL() async throws {
        let instances = try (0..<4).map { _ in try pipeline() }
        let requests = (0..<10).map { request("/p\($0).jpg") }
        let outcomes = try await withThrowingTaskGroup(of: CacheOutcome.self) { group in
            for request in requests {
                for instance in instances {
                    group.addTask { try await instance.prepare(request).cacheOutcome }
                }
            }
            return try await group.reduce(into: [CacheOutcome]()) { $0.append($1) }
        }
        XCTAssertEqual(outcomes.filter { $0 == .network }.count, 10, "\(outcomes)")
        XCTAssertEqual(outcomes.filter { $0 == .shared }.count, 30, "\(outcomes)")
        // Each original downloaded once and each variant rendered once: the others waited for it.
        XCTAssertEqual(instances.map { $0.redisCounters?.stores ?? 0 }.reduce(0, +), 20)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.count, 10, "\(log.map(\.path))")
        XCTAssertEqual(Set(log.map(\.path)).count, 10)
        for index in 0..<10 { XCTAssertEqual(try redis.cli("EXISTS", leaseKey("/p\(index).jpg")), "0", "lease released") }
    }

    func testInstancesRenderingSeveralTargetsNeverWaitForEachOther() async throws {
        let instances = try (0..<3).map { _ in try pipeline() }
        let requests = [16, 24, 32, 40].map {
            ImageRequest(url: nginx.url("/p2.jpg"), target: .pixels(PixelSize(width: $0, height: $0)))
        }
        let start = Date()
        let failures = await withTaskGroup(of: Int.self) { group in
            for instance in instances {
                group.addTask { await instance.prefetch(requests).filter { (try? $0.get()) == nil }.count }
            }
            return await group.reduce(0, +)
        }
        XCTAssertEqual(failures, 0)
        // Leases of 60 s here: a wait for one would show (30 s of slack).
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "no wait for a lease TTL")
        let served = try await nginx.settledAccessLog()
        XCTAssertEqual(served.count, 1)
    }

    func testDeadLeaseholderBlocksOnlyUntilItsLeaseExpires() async throws {
        try redis.cli("SET", leaseKey("/p0.jpg"), "dead-instance", "PX", "400")
        let start = Date()
        let result = try await pipeline().prepare(request("/p0.jpg"))
        let waited = Date().timeIntervalSince(start)
        XCTAssertEqual(result.cacheOutcome, .network)
        // Until the dead lease expired (0.4 s), far less than the 120 s wait limit (30 s of slack).
        XCTAssertGreaterThan(waited, 0.35)
        XCTAssertLessThan(waited, 30)
        let served = try await nginx.settledAccessLog()
        XCTAssertEqual(served.count, 1)
    }

    func testWaitEndsAfterTheWaitLimitWhateverTheLeaseSays() async throws {
        // A holder that keeps its lease (renewing it, or stuck with a long one) is waited for at
        // most the wait limit.
        try redis.cli("SET", leaseKey("/p1.jpg"), "stuck-instance", "PX", "60000")
        let start = Date()
        let result = try await pipeline(leaseTTL: 0.3, leaseWaitLimit: 0.3).prepare(request("/p1.jpg"))
        let waited = Date().timeIntervalSince(start)
        XCTAssertEqual(result.cacheOutcome, .network)
        // The wait limit (0.3 s), not the stuck lease's 60 s (with 30 s of slack).
        XCTAssertGreaterThan(waited, 0.25)
        XCTAssertLessThan(waited, 30)
        // Not this instance's lease: left alone.
        XCTAssertEqual(try redis.cli("GET", leaseKey("/p1.jpg")), "stuck-instance")
    }

    func testFailedDownloadReleasesItsLease() async throws {
        let instance = try pipeline()
        do {
            _ = try await instance.prepare(request("/missing.jpg"))
            XCTFail("404 expected")
        } catch ImgCacheError.httpStatus(let code, _) {
            XCTAssertEqual(code, 404)
        }
        XCTAssertEqual(try redis.cli("EXISTS", leaseKey("/missing.jpg")), "0")
        // The next instance does not wait for a value that will not come (leases of 60 s here:
        // 30 s of slack).
        let start = Date()
        _ = try? await pipeline().prepare(request("/missing.jpg"))
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
        let served = try await nginx.settledAccessLog()
        XCTAssertEqual(served.map(\.path), ["/missing.jpg", "/missing.jpg"])
    }
}

extension RedisLeaseTests {
    func testAHeldLeaseIsRenewedWhileItsWorkRunsAndStopsBeingRenewedOnRelease() async throws {
        var configuration = try RedisConfiguration(url: redis.url)
        configuration.leaseTTL = 1.5
        let tier = RedisTier(configuration: configuration)
        let key = nginx.url("/p2.jpg").absoluteString
        let leases = FleetLeases(io: BlockingPool(threadCount: 1, name: "imgcache-test-tiers"))
        let (found, lease) = await leases.lookup(key, in: tier)
        XCTAssertNil(found)
        let held = try XCTUnwrap(lease)
        let redisLease = leaseKey("/p2.jpg")
        // Over two TTLs later the lease still holds this instance's token: renewed every 0.5 s,
        // it outlives its 1.5 s TTL (a renewal may come up to 1 s late on a loaded machine).
        try await Task.sleep(for: .seconds(3.5))
        XCTAssertEqual(try redis.cli("GET", redisLease), held.token)
        await leases.release(held)
        XCTAssertEqual(try redis.cli("EXISTS", redisLease), "0")
        XCTAssertFalse(tier.renewLease(forCacheKey: key, token: held.token), "a released lease is not renewed")
    }
}
