import Foundation
import ImgCache
import XCTest

/// Kept-alive connections through the whole pipeline, counted in Debian's nginx access log
/// (`$connection`), with and without a dead host among the URLs. nginx must be installed: these tests fail, not skip, without it.
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

    /// A prefetch list with a dead host in it (50 URLs of a closed port among 200 of nginx, each
    /// refused three times) still loads nginx's images over no more connections than before: a
    /// refused connection retires none of the loader's connections.
    func testAClosedPortAmongThePrefetchesCostsNoConnection() async throws {
        let nginx = try NginxServer()
        defer { nginx.stop() }
        let cacheRoot = try ServerProcess.temporaryFolder("imgcache-connection-reuse")
        defer { try? FileManager.default.removeItem(at: cacheRoot) }
        let closedPort = try NginxServer.freePort()
        var requests: [ImageRequest] = []
        var closedURLs: Set<URL> = []
        for index in 0..<200 {
            let name = "\(index).jpg"
            try TestImage.jpeg(width: 32, height: 24, seed: UInt8(index)).write(to: nginx.root.appendingPathComponent(name))
            requests.append(ImageRequest(url: nginx.url("/" + name), target: .pixels(PixelSize(width: 16, height: 12))))
            if index % 4 == 3 {
                let closed = try XCTUnwrap(URL(string: "http://127.0.0.1:\(closedPort)/\(index).jpg"))
                closedURLs.insert(closed)
                requests.append(ImageRequest(url: closed, target: .pixels(PixelSize(width: 16, height: 12))))
            }
        }
        XCTAssertEqual(closedURLs.count, 50)
        var configuration = ImagePipeline.Configuration()
        configuration.diskCache = DiskCache.Configuration(root: cacheRoot)
        configuration.diskCache.syncWrites = false
        // Three attempts as by default, without the default back-off's seconds of waiting.
        configuration.loading.retryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: 0.01, multiplier: 2, maxDelay: 0.02)
        let pipeline = try ImagePipeline(configuration: configuration)
        let results = await pipeline.prefetch(requests)
        for (request, result) in zip(requests, results) {
            if closedURLs.contains(request.url) {
                guard case .failure(let error) = result, case .network? = error as? ImgCacheError else {
                    XCTFail("\(request.url): expected a network error, got \(result)")
                    continue
                }
            } else if case .failure(let error) = result {
                XCTFail("\(request.url): \(error)")
            }
        }
        let log = try nginx.accessLog(count: 200)
        XCTAssertEqual(log.count, 200, "each image loaded once")
        let connections = Set(log.map(\.connection))
        print("closed-port prefetch test: 200 requests to nginx over \(connections.count) connections")
        XCTAssertLessThanOrEqual(connections.count, 4)
    }
}
