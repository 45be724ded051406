import Foundation
import TestSupport
import XCTest
@testable import ImgCache

final class ImagePipelineTests: XCTestCase {
    private var root: URL!
    private let photoURL = URL(string: "https://example.test/photo.png")!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-pipeline-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func pipeline(_ loader: CountingLoader) throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        return try ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, diskCache: disk))
    }

    private func photo(width: Int = 400, height: Int = 300, seed: UInt64 = 1) throws -> Data {
        try PNGEncoder.encode(TestImages.scene(width: width, height: height, seed: seed))
    }

    private func request(_ width: Int, _ height: Int) -> ImageRequest {
        ImageRequest(url: photoURL, target: .pixels(PixelSize(width: width, height: height)))
    }

    /// The load is held until all fifty are in flight. (One that reaches the pipeline after the
    /// shared work ended would be a memory hit: still one load and one decode.)
    func testFiftyConcurrentIdenticalRequestsMakeOneLoadAndOneDecode() async throws {
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        loader.serve(photoURL, .init(data: try photo()))
        let pipeline = try pipeline(loader)
        let request = request(100, 100)
        let responses = try await withThrowingTaskGroup(of: ImageResponse.self) { group in
            for _ in 0..<50 { group.addTask { try await pipeline.image(for: request) } }
            try await waitUntil("fifty requests are in flight") { pipeline.metrics.snapshot().inFlight == 50 }
            gate.open()
            return try await group.reduce(into: [ImageResponse]()) { $0.append($1) }
        }
        XCTAssertEqual(responses.count, 50)
        XCTAssertTrue(responses.allSatisfy { $0.pixelSize == PixelSize(width: 100, height: 75) })
        XCTAssertGreaterThan(responses.filter { $0.cacheOutcome == .network }.count, 0)
        XCTAssertTrue(responses.allSatisfy { [.network, .memory].contains($0.cacheOutcome) })
        XCTAssertEqual(loader.loads, 1)
        let decodes = await pipeline.images.startedCount
        XCTAssertEqual(decodes, 1)
    }

    func testOutcomesGoMemoryThenDiskWithoutNetwork() async throws {
        let loader = CountingLoader()
        loader.serve(photoURL, .init(data: try photo(), etag: "\"v1\""))
        let first = try await pipeline(loader).image(for: request(120, 120))
        XCTAssertEqual(first.cacheOutcome, .network)
        XCTAssertEqual(first.format, .jpeg, "an opaque still is stored as JPEG")
        let fileURL = try XCTUnwrap(first.fileURL)
        XCTAssertEqual(fileURL.lastPathComponent, CacheKey.fileName(forVariant: VariantKey.make(
            url: photoURL.absoluteString, pixels: PixelSize(width: 120, height: 120),
            options: DecodingOptions(targetSize: PixelSize(width: 120, height: 120)), format: .automatic), format: .jpeg))
        XCTAssertEqual(try Data(contentsOf: fileURL).count, first.byteCount)

        let pipeline = try pipeline(loader) // a new process: empty memory cache, same disk cache
        let fromDisk = try await pipeline.image(for: request(120, 120))
        XCTAssertEqual(fromDisk.cacheOutcome, .disk)
        // The first response has the pixels the JPEG was encoded from; a disk hit decodes the file.
        XCTAssertEqual(fromDisk.image.frames, try ImageDecoder.decode(.file(path: fileURL.path)).frames)
        XCTAssertGreaterThan(PSNR.of(fromDisk.image.frames[0].bitmap.pixels, first.image.frames[0].bitmap.pixels), 25)
        let fromMemory = try await pipeline.image(for: request(120, 120))
        XCTAssertEqual(fromMemory.cacheOutcome, .memory)
        // A new size of the same URL decodes the stored original: still no request.
        let otherSize = try await pipeline.image(for: request(50, 50))
        XCTAssertEqual(otherSize.cacheOutcome, .disk)
        XCTAssertEqual(otherSize.pixelSize, PixelSize(width: 50, height: 38))
        XCTAssertEqual(loader.loads, 1)
    }

    func testAVariantDamagedOnDiskIsRenderedAgain() async throws {
        let loader = CountingLoader()
        loader.serve(photoURL, .init(data: try photo(), etag: "\"v1\""))
        let first = try await pipeline(loader).image(for: request(60, 60))
        let file = try XCTUnwrap(first.fileURL)
        try Data(repeating: 0x42, count: first.byteCount).write(to: file) // same size, not a PNG
        let again = try await pipeline(loader).image(for: request(60, 60))
        XCTAssertEqual(again.cacheOutcome, .disk)
        XCTAssertEqual(again.image.frames, first.image.frames)
        XCTAssertEqual(try Data(contentsOf: try XCTUnwrap(again.fileURL)).prefix(3), Data([0xFF, 0xD8, 0xFF]))
        XCTAssertEqual(loader.loads, 1)
    }

    func testAStaleOriginalIsRevalidatedAndA304DownloadsNothing() async throws {
        let loader = CountingLoader()
        loader.serve(photoURL, .init(data: try photo(), etag: "\"v1\"", maxAge: 0))
        _ = try await pipeline(loader).image(for: request(80, 80))
        let again = try await pipeline(loader).image(for: request(80, 80))
        XCTAssertEqual(again.cacheOutcome, .revalidated)
        XCTAssertEqual(loader.loads, 2)
        XCTAssertEqual(loader.conditionalLoads, 1)
        XCTAssertEqual(loader.notModified, 1)
    }

    func testChangedBytesReplaceTheOriginalAndItsVariants() async throws {
        let loader = CountingLoader()
        loader.serve(photoURL, .init(data: try photo(seed: 1), etag: "\"v1\"", maxAge: 0))
        let old = try await pipeline(loader).image(for: request(80, 80))
        loader.serve(photoURL, .init(data: try photo(seed: 2), etag: "\"v2\"", maxAge: 0))
        let new = try await pipeline(loader).image(for: request(80, 80))
        XCTAssertEqual(new.cacheOutcome, .network)
        XCTAssertNotEqual(new.image.frames, old.image.frames)
        let entries = try DiskCache(configuration: DiskCache.Configuration(root: root)).entries()
        XCTAssertEqual(entries.count, 2) // the new original and its one variant
        XCTAssertEqual(entries.first { $0.kind == .original }?.etag, "\"v2\"")
    }

    func testAWidgetTargetGivesTheWidgetsPixelsAtItsScale() async throws {
        let loader = CountingLoader()
        loader.serve(photoURL, .init(data: try photo(width: 3000, height: 2000)))
        let device = try DeviceCatalog.device(named: "iPhone 16 Pro")
        let response = try await pipeline(loader).image(for: ImageRequest(
            url: photoURL, target: .widget(.medium, device: device), contentMode: .crop))
        XCTAssertEqual(response.pixelSize, PixelSize(width: 1032, height: 486))
        XCTAssertEqual(response.scale, 3)
        XCTAssertEqual(response.pointSize, PointSize(width: 344, height: 162))
    }

    func testAnimatedOriginalsKeepTheFirstFramesAsAGIF() async throws {
        let loader = CountingLoader()
        let gifURL = URL(string: "https://example.test/anim.gif")!
        let encoder = try GIFEncoder(size: PixelSize(width: 64, height: 64), loopCount: 0)
        for index in 0..<30 {
            try encoder.add(ImageFrame(bitmap: TestImages.scene(width: 64, height: 64, seed: UInt64(index)), delayCentiseconds: 5))
        }
        loader.serve(gifURL, .init(data: try encoder.finish()))
        let pipeline = try pipeline(loader)
        let eight = try await pipeline.image(for: ImageRequest(url: gifURL, target: .pixels(PixelSize(width: 32, height: 32)), maxFrames: 8))
        XCTAssertEqual(eight.format, .gif)
        XCTAssertEqual(eight.image.frames.count, 8)
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: XCTUnwrap(eight.fileURL).path)).frameCount, 8)
        let budgeted = try await pipeline.image(for: ImageRequest(
            url: gifURL, target: .pixels(PixelSize(width: 32, height: 32)), maxFrames: 8, frameBudgetBytes: 3 * 32 * 32 * 4))
        XCTAssertEqual(budgeted.image.frames.count, 3)
        XCTAssertEqual(loader.loads, 1)
    }

    func testBytesThatAreNotAnImageAreRefusedAndNothingIsStored() async throws {
        let loader = CountingLoader()
        loader.serve(photoURL, .init(data: Data("<html>503</html>".utf8)))
        do {
            _ = try await pipeline(loader).image(for: request(10, 10))
            XCTFail("expected an error")
        } catch let error as ImgCacheError {
            guard case .unsupportedFormat = error else { return XCTFail("\(error)") }
        }
        let corrupt = try photo().prefix(100)
        loader.serve(photoURL, .init(data: Data(corrupt)))
        do {
            _ = try await pipeline(loader).image(for: request(10, 10))
            XCTFail("expected an error")
        } catch let error as ImgCacheError {
            guard case .corruptImage = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try DiskCache(configuration: DiskCache.Configuration(root: root)).entries().count, 0)
    }

    func testNoStoreResponsesAreServedButNotStored() async throws {
        let loader = CountingLoader()
        loader.serve(photoURL, .init(data: try photo(), noStore: true))
        let response = try await pipeline(loader).image(for: request(40, 40))
        XCTAssertNil(response.fileURL)
        XCTAssertEqual(try response.encodedData().count, response.byteCount)
        XCTAssertEqual(try DiskCache(configuration: DiskCache.Configuration(root: root)).entries().count, 0)
    }

    func testCancellingEveryWaiterCancelsTheSharedLoad() async throws {
        // A load that would take far longer than the test's safety net unless cancelled.
        let loader = CountingLoader(delay: .seconds(600))
        loader.serve(photoURL, .init(data: try photo()))
        let pipeline = try pipeline(loader)
        let request = request(10, 10)
        let tasks = (0..<3).map { _ in Task { try await pipeline.image(for: request) } }
        try await waitUntil("the shared load has started") { loader.loads == 1 }
        for task in tasks { task.cancel() }
        for task in tasks {
            do {
                _ = try await task.value
                XCTFail("expected cancellation")
            } catch is CancellationError {}
        }
        try await waitUntil("the shared load is cancelled") { loader.cancelledLoads == 1 }
        XCTAssertEqual(loader.loads, 1, "one load for the three waiters")
        let inFlight = await pipeline.images.inFlightCount
        XCTAssertEqual(inFlight, 0)
    }

    func testDataReportsWhetherTheContentChanged() async throws {
        let loader = CountingLoader()
        let feed = URL(string: "https://example.test/feed.json")!
        loader.serve(feed, .init(data: Data("[1]".utf8), maxAge: 0)) // no validators: a digest decides
        let pipeline = try pipeline(loader)
        let first = try await pipeline.data(for: feed)
        XCTAssertTrue(first.changed)
        let same = try await pipeline.data(for: feed)
        XCTAssertFalse(same.changed)
        XCTAssertEqual(same.cacheOutcome, .network)
        loader.serve(feed, .init(data: Data("[1,2]".utf8), etag: "\"b\"", maxAge: 0))
        let changed = try await pipeline.data(for: feed)
        XCTAssertTrue(changed.changed)
        XCTAssertEqual(changed.data, Data("[1,2]".utf8))
        let revalidated = try await pipeline.data(for: feed)
        XCTAssertFalse(revalidated.changed)
        XCTAssertEqual(revalidated.cacheOutcome, .revalidated)
        XCTAssertEqual(revalidated.data, Data("[1,2]".utf8))
    }

    func testPrefetchReturnsSummariesInRequestOrderAndReportsFailures() async throws {
        let loader = CountingLoader()
        let urls = (0..<12).map { URL(string: "https://example.test/\($0).png")! }
        for (index, url) in urls.enumerated() where index != 5 {
            loader.serve(url, .init(data: try photo(width: 40 + index, height: 30, seed: UInt64(index))))
        }
        let progress = CountingProgress()
        let results = try await pipeline(loader).prefetch(urls.map { ImageRequest(url: $0) }) { done, _ in progress.note(done) }
        XCTAssertEqual(results.count, 12)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let summary):
                XCTAssertEqual(summary.request.url, urls[index])
                XCTAssertEqual(summary.pixelSize, PixelSize(width: 40 + index, height: 30))
                XCTAssertEqual(summary.cacheOutcome, .network)
            case .failure(let error):
                XCTAssertEqual(index, 5)
                XCTAssertEqual(error as? ImgCacheError, .httpStatus(code: 404, url: urls[5].absoluteString))
            }
        }
        XCTAssertEqual(progress.values, Array(1...12))
    }

    func testUnsupportedSchemesAreRefused() async throws {
        let pipeline = try pipeline(CountingLoader())
        do {
            _ = try await pipeline.image(for: ImageRequest(url: URL(string: "ftp://example.test/a.png")!))
            XCTFail("expected an error")
        } catch let error as ImgCacheError {
            XCTAssertEqual(error, .invalidURL("ftp://example.test/a.png"))
        }
    }
}

/// Records the progress counts a prefetch reports.
private final class CountingProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Int] = []
    func note(_ value: Int) { lock.withLock { seen.append(value) } }
    var values: [Int] { lock.withLock { seen.sorted() } }
}
