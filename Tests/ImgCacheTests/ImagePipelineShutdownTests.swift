import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// `ImagePipeline.shutdown()`: calls in flight finish, later ones fail with `shutDown`, and the
/// pipeline's threads and cache index are closed when it returns.
final class ImagePipelineShutdownTests: XCTestCase {
    private var root: URL!
    private let photoURL = URL(string: "https://example.test/photo.png")!
    private let heldURL = URL(string: "https://example.test/held.png")!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-shutdown-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func request(_ width: Int, url: URL? = nil) -> ImageRequest {
        ImageRequest(url: url ?? photoURL, target: .pixels(PixelSize(width: width, height: width)))
    }

    /// A request whose download the test holds: shutdown begins (new calls are refused at once),
    /// waits for it, and the request gets its image; then the pools, the index and the memory
    /// answers are closed.
    func testACallInFlightFinishesAndCallsMadeAfterShutdownBeganFailWithShutDown() async throws {
        let loader = HeldLoader(holding: heldURL)
        let photo = try PNGEncoder.encode(TestImages.scene(width: 400, height: 300))
        loader.counting.serve(photoURL, .init(data: photo))
        loader.counting.serve(heldURL, .init(data: photo))
        let pipeline = try loader.counting.pipeline(root: root, loader: loader)
        _ = try await pipeline.prepare(request(50))
        XCTAssertNotNil(pipeline.storedSummary(for: request(50)))

        let held = request(120, url: heldURL)
        let inFlight = Task { try await pipeline.image(for: held) }
        await loader.arrivals.wait(for: 1)
        let shutDown = Task { await pipeline.shutdown() }
        try await waitUntil("the pipeline refuses calls") { !pipeline.lifecycle.isOpen }

        await assertShutDown { try await pipeline.prepare(self.request(60)) }
        await assertShutDown { try await pipeline.image(for: self.request(60)) }
        await assertShutDown { try await pipeline.data(for: self.photoURL) }
        await assertShutDown { try await pipeline.task(for: self.request(60)).response }
        let prefetched = await pipeline.prefetch([request(70), request(80)])
        XCTAssertEqual(prefetched.map { (try? $0.get()) == nil }, [true, true])
        for result in prefetched {
            XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? ImgCacheError, .shutDown) }
        }
        XCTAssertNil(pipeline.storedSummary(for: request(50)), "no answers from memory once shut down")
        let health = await pipeline.healthProblems()
        XCTAssertEqual(health, ["the pipeline is shut down"])

        loader.gate.open()
        let image = try await inFlight.value
        XCTAssertEqual(image.pixelSize, PixelSize(width: 120, height: 90), "the call in flight got its image")
        await shutDown.value
        XCTAssertEqual(loader.counting.loads, 2, "one load before, the held one; nothing after shutdown began")
        XCTAssertEqual(pipeline.metrics.snapshot().errors["shut_down"], 5, "prepare, image, task and two prefetched")

        do {
            try await pipeline.blocking.run {}
            XCTFail("the pipeline's threads take no work once it is shut down")
        } catch ImgCacheError.shutDown {}
        XCTAssertThrowsError(try pipeline.diskCache.entry(for: "any")) { error in
            guard case .cacheIndex? = error as? ImgCacheError else { return XCTFail("\(error)") }
        }
        // Shut down cleanly: the next pipeline on the folder finds what the first stored.
        let reopened = try loader.counting.pipeline(root: root)
        let again = try await reopened.prepare(request(120, url: heldURL))
        XCTAssertEqual(again.cacheOutcome, .disk)
        await reopened.shutdown()
    }

    func testConcurrentAndRepeatedShutdownsAllReturnOnceItIsDone() async throws {
        let loader = CountingLoader()
        loader.serve(photoURL, .init(data: try PNGEncoder.encode(TestImages.scene(width: 64, height: 64))))
        let pipeline = try loader.pipeline(root: root)
        _ = try await pipeline.prepare(request(32))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { await pipeline.shutdown() } }
        }
        for _ in 0..<4 {
            do {
                try await pipeline.blocking.run {}
                XCTFail("every shutdown returned before the threads were closed")
            } catch ImgCacheError.shutDown {}
        }
        await pipeline.shutdown()
    }

    func testAPipelineReleasedWithoutShutdownClosesItsCacheForTheNextOne() async throws {
        let loader = CountingLoader()
        loader.serve(photoURL, .init(data: try PNGEncoder.encode(TestImages.scene(width: 64, height: 64))))
        do {
            let pipeline = try loader.pipeline(root: root)
            _ = try await pipeline.prepare(request(32))
        }
        let next = try loader.pipeline(root: root)
        let summary = try await next.prepare(request(32))
        XCTAssertEqual(summary.cacheOutcome, .disk)
        await next.shutdown()
    }

    private func assertShutDown<Value>(
        _ call: () async throws -> Value, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            _ = try await call()
            XCTFail("a call after shutdown began succeeded", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .shutDown, file: file, line: line)
        }
    }
}

/// A loader whose loads of one URL each arrive, then wait at a gate the test opens; every load
/// is then answered by a `CountingLoader`.
private final class HeldLoader: DataLoading {
    let counting = CountingLoader()
    let arrivals = Arrivals()
    let gate = Gate()
    private let held: URL

    init(holding url: URL) {
        held = url
    }

    func load(_ request: DataRequest) async throws -> DataResponse {
        if request.url == held {
            arrivals.arrive()
            try await gate.wait()
        }
        return try await counting.load(request)
    }
}

extension CountingLoader {
    /// A pipeline loading through `loader`, its disk cache in `root` without syncing writes.
    fileprivate func pipeline(root: URL, loader: any DataLoading) throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        return try ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, diskCache: disk))
    }
}
