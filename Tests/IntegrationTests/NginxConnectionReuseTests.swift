import Foundation
import ImgCache
import XCTest

/// Kept-alive connections through the whole pipeline, counted in Debian's nginx access log
/// (`$connection`). nginx must be installed: these tests fail, not skip, without it.
final class NginxConnectionReuseTests: XCTestCase {
    /// When a transfer ends with more connections open than four per transfer in flight, libcurl
    /// (7.88) closes the oldest idle one: when the loads in flight drop to one, a fifth and sixth
    /// connection close and a later burst opens new ones. Over the run there may be a few more
    /// connections than the load limit, never more in use at once.
    func testTwoHundredPrefetchesFromOneHostKeepAtMostTheLoadLimitOfConnectionsOpen() async throws {
        let nginx = try NginxServer()
        defer { nginx.stop() }
        let cacheRoot = try ServerProcess.temporaryFolder("imgcache-connection-reuse")
        defer { try? FileManager.default.removeItem(at: cacheRoot) }
        let names = (0..<200).map { "\($0).jpg" }
        for (index, name) in names.enumerated() {
            try TestImage.jpeg(width: 32, height: 24, seed: UInt8(index)).write(to: nginx.root.appendingPathComponent(name))
        }
        var configuration = ImagePipeline.Configuration()
        configuration.diskCache = DiskCache.Configuration(root: cacheRoot)
        configuration.diskCache.syncWrites = false
        let pipeline = try ImagePipeline(configuration: configuration)
        let requests = names.map { ImageRequest(url: nginx.url("/" + $0), target: .pixels(PixelSize(width: 16, height: 12))) }
        let results = await pipeline.prefetch(requests)
        for case .failure(let error) in results { XCTFail("\(error)") }
        let log = try nginx.accessLog(count: names.count)
        XCTAssertEqual(log.map(\.path).sorted(), names.map { "/" + $0 }.sorted(), "each image loaded once")
        // A connection is open at least from its first request in the log to its last.
        let spans = Dictionary(grouping: log.indices, by: { log[$0].connection }).values.map { ($0.min()!, $0.max()!) }
        let mostAtOnce = log.indices.map { index in spans.filter { $0.0 <= index && index <= $0.1 }.count }.max() ?? 0
        XCTAssertLessThanOrEqual(mostAtOnce, configuration.maxConcurrentLoads)
        let reused = log.filter { $0.requestOnConnection > 1 }.count
        XCTAssertGreaterThanOrEqual(reused, names.count * 9 / 10, "\(spans.count) connections for \(names.count) requests")
    }
}
