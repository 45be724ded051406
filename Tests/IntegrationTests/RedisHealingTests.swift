import Foundation
import XCTest

@testable import ImgCache

/// A damaged value in the shared tier heals: the instance that finds it removes it (only while
/// Redis still holds those bytes) and fetches from the origin, whose good bytes then replace it.
final class RedisHealingTests: RedisNginxTestCase {
    private func pipeline() throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: temporaryFolder("imgcache-healing"))
        disk.syncWrites = false
        return try ImagePipeline(configuration: ImagePipeline.Configuration(
            diskCache: disk, redis: try RedisConfiguration(url: redis.url)))
    }

    private func request(_ index: Int, width: Int = 32) -> ImageRequest {
        ImageRequest(url: nginx.url("/p\(index).jpg"), target: .pixels(PixelSize(width: width, height: width)))
    }

    /// `jpeg` with its entropy-coded data cut short after the start of scan: its headers read, its
    /// pixels do not.
    private func brokenScan(_ jpeg: Data) throws -> Data {
        let bytes = [UInt8](jpeg)
        let startOfScan = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let broken = Data(bytes[..<(startOfScan + 40)]) + Data([0xFF, 0xD9])
        XCTAssertNoThrow(try ImageDecoder.inspect(.data(broken)), "the headers read")
        XCTAssertThrowsError(try ImageDecoder.decode(.data(broken)), "the scan does not")
        return broken
    }

    func testAnOriginalThatDoesNotDecodeIsRemovedFromRedisAndFetchedFromTheOrigin() async throws {
        let good = try Data(contentsOf: nginx.root.appendingPathComponent("p0.jpg"))
        let key = nginx.url("/p0.jpg").absoluteString
        let tier = RedisTier(configuration: try RedisConfiguration(url: redis.url))
        let poisoned = CachedData(data: try brokenScan(good), contentType: "image/jpeg", expiresAt: Date().addingTimeInterval(3600))
        XCTAssertNotNil(tier.storeData(poisoned, for: key, kind: .original))
        // An instance takes it from Redis, finds it does not decode, and goes to the origin.
        let response = try await pipeline().image(for: request(0))
        XCTAssertEqual(response.cacheOutcome, .network)
        XCTAssertEqual(response.pixelSize, PixelSize(width: 32, height: 24))
        XCTAssertEqual(try nginx.accessLog(count: 1).count, 1)
        XCTAssertEqual(try tier.cachedData(for: key)?.data(), good, "Redis now holds the origin's bytes")
        // Any other instance now gets the good value from Redis.
        let other = try await pipeline().image(for: request(0, width: 16))
        XCTAssertEqual(other.cacheOutcome, .shared)
        let downloads = try await nginx.settledAccessLog()
        XCTAssertEqual(downloads.count, 1)
    }

    func testAVariantWhoseBodyIsDamagedIsRemovedFromRedisAndRenderedAgain() async throws {
        let first = try pipeline()
        let made = try await first.prepare(request(1))
        let variantKey = try XCTUnwrap(first.diskCache.entries().first { CacheKey.isVariantKey($0.key) }?.key)
        let goodVariant = try Data(contentsOf: try XCTUnwrap(made.fileURL))
        let tier = RedisTier(configuration: try RedisConfiguration(url: redis.url))
        let poisoned = CachedData(data: try brokenScan(goodVariant), contentType: "image/jpeg", expiresAt: Date().addingTimeInterval(3600))
        XCTAssertNotNil(tier.storeData(poisoned, for: variantKey, kind: .variant(of: nginx.url("/p1.jpg").absoluteString)))
        // Another instance adopts it (its headers read), fails to decode it, removes it here and in
        // Redis, and renders it from the original (from Redis: no second origin request).
        let second = try pipeline()
        let response = try await second.image(for: request(1))
        XCTAssertEqual(response.pixelSize, PixelSize(width: 32, height: 24))
        XCTAssertEqual(response.cacheOutcome, .shared)
        let healed = try XCTUnwrap(tier.cachedData(for: variantKey)?.data())
        XCTAssertNoThrow(try ImageDecoder.decode(.data(healed)), "Redis holds a variant that decodes")
        let downloads = try await nginx.settledAccessLog()
        XCTAssertEqual(downloads.count, 1)
    }

    func testACompareAndDeleteLeavesAValueWrittenMeanwhile() throws {
        let tier = RedisTier(configuration: try RedisConfiguration(url: redis.url))
        let key = nginx.url("/p2.jpg").absoluteString
        let damaged = CachedData(data: Data("damaged".utf8), expiresAt: Date().addingTimeInterval(60))
        let good = CachedData(data: try Data(contentsOf: nginx.root.appendingPathComponent("p2.jpg")), expiresAt: Date().addingTimeInterval(60))
        XCTAssertNotNil(tier.storeData(good, for: key, kind: .original))
        tier.removeData(for: key, ifHolding: damaged)
        XCTAssertEqual(try tier.cachedData(for: key)?.data(), try good.data(), "another instance's good value survives")
        XCTAssertNotNil(tier.storeData(damaged, for: key, kind: .original))
        tier.removeData(for: key, ifHolding: damaged)
        XCTAssertNil(tier.cachedData(for: key))
    }
}
