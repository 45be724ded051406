import Foundation
import ImgCache
import XCTest

/// Every fault case through the whole pipeline: the documented error (or the retried success),
/// within the loader's time-outs, and a cache that holds nothing wrong afterwards.
final class PipelineFaultTests: FaultServerTestCase {
    private var cacheRoot: URL!

    override func setUp() async throws {
        try await super.setUp()
        cacheRoot = try ServerProcess.temporaryFolder("imgcache-pipeline-faults")
    }

    private func pipeline() throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: cacheRoot)
        disk.syncWrites = false
        return try ImagePipeline(configuration: ImagePipeline.Configuration(loading: Self.configuration, diskCache: disk))
    }

    private func request(_ path: String) -> ImageRequest {
        ImageRequest(url: server.url(path), target: .pixels(PixelSize(width: 16, height: 16)))
    }

    /// Fetches `path` expecting `expected` within `seconds`, then checks the cache is empty and consistent.
    private func assertFails(
        _ path: String, within seconds: TimeInterval, file: StaticString = #filePath, line: UInt = #line,
        _ expected: (ImgCacheError) -> Bool
    ) async throws {
        let start = Date()
        do {
            let response = try await pipeline().image(for: request(path))
            XCTFail("\(path) gave a \(response.pixelSize) image", file: file, line: line)
        } catch let error as ImgCacheError {
            XCTAssertTrue(expected(error), "\(path): \(error)", file: file, line: line)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), seconds, path, file: file, line: line)
        try assertCache(entries: 0, file: file, line: line)
    }

    private func assertCache(entries: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let cache = try DiskCache(configuration: DiskCache.Configuration(root: cacheRoot))
        XCTAssertEqual(try cache.entries().count, entries, "entries in the cache", file: file, line: line)
        XCTAssertTrue(try cache.verify().isConsistent, file: file, line: line)
    }

    func testStatusErrorsAreTypedAndNotStored() async throws {
        try await assertFails("/404", within: 2) { $0 == .httpStatus(code: 404, url: self.server.url("/404").absoluteString) }
        try await assertFails("/500", within: 3) { $0 == .httpStatus(code: 500, url: self.server.url("/500").absoluteString) }
    }

    func testRetriedSuccessesAreStoredOnce() async throws {
        for path in ["/flaky", "/429?after=1"] {
            let response = try await pipeline().image(for: request(path))
            XCTAssertEqual(response.cacheOutcome, .network, path)
            XCTAssertEqual(response.pixelSize, PixelSize(width: 16, height: 12), path)
        }
        try assertCache(entries: 4)
    }

    func testASlowBodyTimesOut() async throws {
        try await assertFails("/slow", within: 3) { if case .timeout = $0 { true } else { false } }
    }

    func testATruncatedBodyIsANetworkError() async throws {
        try await assertFails("/truncated", within: 3) { if case .network(_, let detail) = $0 { detail.contains("truncated") } else { false } }
    }

    func testAConnectionResetIsANetworkError() async throws {
        try await assertFails("/reset", within: 3) { if case .network = $0 { true } else { false } }
    }

    func testARedirectLoopStopsAfterFiveRedirects() async throws {
        try await assertFails("/redirect-loop", within: 2) { if case .network(_, let detail) = $0 { detail.contains("redirects") } else { false } }
    }

    /// At 64 MiB/s, a fast link. (At loopback speed FoundationNetworking can take many seconds to
    /// act on a cancel, since it has no backpressure; see DataLoaderTransferFaultTests.)
    func testAnEndlessBodyStopsAtTheByteLimit() async throws {
        try await assertFails("/endless?rate=67108864", within: 3) { if case .tooLarge = $0 { true } else { false } }
    }

    func testAContentLengthOverTheLimitIsRefusedBeforeTheBody() async throws {
        try await assertFails("/big", within: 2) { if case .tooLarge = $0 { true } else { false } }
    }

    func testAContentLengthLieIsNotAnImageAndIsNotStored() async throws {
        // The body's first 1000 bytes ("aaa...") are what Content-Length promised: not an image.
        try await assertFails("/lie", within: 2) { if case .unsupportedFormat = $0 { true } else { false } }
    }
}
