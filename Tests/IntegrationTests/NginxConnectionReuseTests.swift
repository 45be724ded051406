import Foundation
import ImgCache
import XCTest

/// Kept-alive connections through the whole pipeline, counted in Debian's nginx access log
/// (`$connection`). nginx must be installed: these tests fail, not skip, without it.
final class NginxConnectionReuseTests: XCTestCase {
    /// A loader opens at most 4 connections to a host, fewer than the default limit of 8 loads:
    /// libcurl (7.88) keeps up to four idle connections per transfer in flight, so none is closed
    /// between bursts and a later burst opens none.
    func testTwoHundredPrefetchesFromOneHostUseNoMoreConnectionsThanTheLoadLimit() async throws {
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
        let connections = Set(log.map(\.connection))
        print("connection reuse test: \(names.count) requests over \(connections.count) connections")
        XCTAssertEqual(configuration.maxConcurrentLoads, 8)
        XCTAssertLessThanOrEqual(connections.count, 4)
        XCTAssertEqual(log.filter { $0.requestOnConnection > 1 }.count, names.count - connections.count)
    }
}
