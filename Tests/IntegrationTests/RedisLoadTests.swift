import Foundation
import XCTest

@testable import ImgCache

/// Leases under load: four pipelines (a fleet's instances, each with its own cache folder and its
/// own two Redis connections) prefetch the same 200 URLs at once from an origin that answers
/// each request in 300 ms. Every lease is taken and held while its work runs, so that each URL
/// is fetched from the origin once.
final class RedisLoadTests: XCTestCase {
    static let urlCount = 200, instanceCount = 4

    func testFourInstancesWithTwoRedisConnectionsEachMakeOneOriginRequestPerURLUnderLoad() async throws {
        let origin = try FaultServer()
        defer { origin.stop() }
        let redis = try RedisServer()
        defer { redis.stop() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-redis-load-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let urls = (0..<Self.urlCount).map { origin.url("/delayed/u\($0)?seconds=0.3") }
        let pipelines = try (0..<Self.instanceCount).map { number -> ImagePipeline in
            var disk = DiskCache.Configuration(root: root.appendingPathComponent("instance-\(number)"))
            disk.syncWrites = false
            var redisConfiguration = try RedisConfiguration(url: redis.url)
            redisConfiguration.connectionCount = 2
            return try ImagePipeline(configuration: ImagePipeline.Configuration(diskCache: disk, redis: redisConfiguration))
        }
        let results = await withTaskGroup(of: [Result<ImageSummary, any Error>].self) { group in
            for pipeline in pipelines {
                group.addTask {
                    await pipeline.prefetch(urls.map { ImageRequest(url: $0, target: .pixels(PixelSize(width: 16, height: 16)), priority: .low) })
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let failures = results.compactMap { result -> String? in
            guard case .failure(let error) = result else { return nil }
            return String(describing: error)
        }
        XCTAssertEqual(failures, [], "every prefetch succeeds")
        XCTAssertEqual(results.count, Self.urlCount * Self.instanceCount)
        let counts = try await origin.counts(prefix: "/delayed/")
        XCTAssertEqual(counts.count, Self.urlCount)
        let repeated = counts.filter { $0.value != 1 }.sorted { $0.key < $1.key }
        XCTAssertEqual(repeated.map(\.key), [], "requested more than once: \(repeated.map { "\($0.key) x\($0.value)" })")
        let unavailable = pipelines.compactMap(\.redisCounters).map(\.errors).reduce(0, +)
        XCTAssertEqual(unavailable, 0, "no Redis call failed")
    }
}
