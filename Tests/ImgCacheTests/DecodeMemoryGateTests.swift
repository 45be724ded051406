import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// The limiter behind the pipeline's concurrency limits and its memory gate, and the gate itself:
/// decodes whose estimates do not fit together wait for each other.
final class DecodeMemoryGateTests: XCTestCase {
    /// Holds pieces of work open until the test lets them finish, recording the order they start.
    private actor Recorder {
        var started: [String] = []
        private var gates: [String: CheckedContinuation<Void, Never>] = [:]

        func begin(_ name: String) async {
            started.append(name)
            await withCheckedContinuation { gates[name] = $0 }
        }

        func finish(_ name: String) {
            gates.removeValue(forKey: name)?.resume()
        }

        func isHeld(_ name: String) -> Bool { gates[name] != nil }
    }

    func testPiecesRunWhileTheirCostsFitAndACostlyOneIsNotOvertaken() async throws {
        let limiter = AsyncLimiter(capacity: 10)
        let recorder = Recorder()
        func start(_ name: String, cost: Int) -> Task<Void, any Error> {
            Task { try await limiter.run(cost: cost) { await recorder.begin(name) } }
        }
        let a = start("a", cost: 6)
        try await waitUntil("a runs") { await recorder.isHeld("a") }
        let b = start("b", cost: 6) // does not fit beside a
        // (Or runs: then the assertion below fails at once.)
        try await waitUntil("b waits") {
            let waiting = await limiter.waitingCount(at: .normal), running = await recorder.isHeld("b")
            return waiting == 1 || running
        }
        let c = start("c", cost: 1) // would fit, but b came first
        try await waitUntil("c waits behind b") {
            let waiting = await limiter.waitingCount(at: .normal), running = await recorder.isHeld("c")
            return waiting == 2 || running
        }
        var started = await recorder.started
        XCTAssertEqual(started, ["a"])
        await recorder.finish("a")
        try await waitUntil("b and c run") { let b = await recorder.isHeld("b"); let c = await recorder.isHeld("c"); return b && c }
        // b and c are admitted together; which of the two reaches the recorder first is up to the scheduler.
        started = await recorder.started
        XCTAssertEqual(started.first, "a")
        XCTAssertEqual(Set(started.dropFirst()), ["b", "c"])
        XCTAssertEqual(started.count, 3)
        await recorder.finish("b")
        await recorder.finish("c")
        for task in [a, b, c] { try await task.value }
        let peak = await limiter.peak
        XCTAssertEqual(peak.cost, 7)
        XCTAssertEqual(peak.pieces, 2)
    }

    func testACostOverTheCapacityRunsAloneAndACancelledWaiterLeavesTheQueue() async throws {
        let limiter = AsyncLimiter(capacity: 4)
        let recorder = Recorder()
        let huge = Task { try await limiter.run(cost: 1_000) { await recorder.begin("huge") } }
        try await waitUntil("huge runs") { await recorder.isHeld("huge") }
        let left = Arrivals()
        let cancelled = Task {
            defer { left.arrive() }
            try await limiter.run(cost: 1) { await recorder.begin("cancelled") }
        }
        let next = Task { try await limiter.run(cost: 1) { await recorder.begin("next") } }
        try await waitUntil("both wait") {
            let waiting = await limiter.waitingCount(at: .normal), started = await recorder.started
            return waiting == 2 || started.count > 1
        }
        let startedBeforehand = await recorder.started
        // (A piece that ran beside huge would wait for the recorder for ever: stop here.)
        guard startedBeforehand == ["huge"] else { return XCTFail("huge ran beside \(startedBeforehand.dropFirst())") }
        cancelled.cancel()
        // (Bounded, not awaited: a waiter that stayed in the queue would wait for ever.)
        try await waitUntil("the cancelled waiter returns while huge still runs") { left.count == 1 }
        do {
            try await cancelled.value
            XCTFail("a cancelled waiter runs nothing")
        } catch is CancellationError {}
        let waiting = await limiter.waitingCount(at: .normal)
        XCTAssertEqual(waiting, 1, "the cancelled waiter left the queue while huge still ran")
        await recorder.finish("huge")
        try await waitUntil("next runs") { await recorder.isHeld("next") }
        await recorder.finish("next")
        try await huge.value
        try await next.value
        let started = await recorder.started
        XCTAssertEqual(started, ["huge", "next"])
        let peak = await limiter.peak
        XCTAssertEqual(peak.cost, 4, "a cost over the capacity takes the whole capacity")
    }

    func testTheEstimateCountsTheSourceAndThreeTimesTheOutputFrames() {
        let jpeg = ImageInspection(format: .jpeg, size: PixelSize(width: 4000, height: 3000), orientation: .right)
        let widget = DecodingOptions(targetSize: PixelSize(width: 300, height: 400), contentMode: .crop)
        XCTAssertEqual(VariantRenderer.estimatedDecodeMemory(jpeg, targets: [widget], passBudget: 64 << 20),
                       4000 * 3000 * 4 + 3 * 300 * 400 * 4)
        // A GIF: its canvas twice; frames by the budget (here 10 of 40,000 bytes, under 1 MB).
        let gif = ImageInspection(format: .gif, size: PixelSize(width: 500, height: 500))
        let frames = DecodingOptions(targetSize: PixelSize(width: 100, height: 100), maxFrames: 10, frameBudgetBytes: 1 << 20)
        XCTAssertEqual(VariantRenderer.estimatedDecodeMemory(gif, targets: [frames], passBudget: 64 << 20),
                       500 * 500 * 8 + 3 * 10 * 100 * 100 * 4)
        // A padded target holds frames of the target's size, not of the fit (750x1000 of 1000x1000).
        let padded = DecodingOptions(targetSize: PixelSize(width: 1000, height: 1000), contentMode: .pad)
        XCTAssertEqual(VariantRenderer.estimatedDecodeMemory(jpeg, targets: [padded], passBudget: 64 << 20),
                       4000 * 3000 * 4 + 3 * 1000 * 1000 * 4)
        // A smart crop holds its frames at the fill size until they are cut, as many as the budget
        // allows at the cut size: 8 frames of 100x100 (40,000 bytes each) in 320,000, held at 200x100.
        let wide = ImageInspection(format: .gif, size: PixelSize(width: 1000, height: 500))
        let smart = DecodingOptions(
            targetSize: PixelSize(width: 100, height: 100), contentMode: .crop, gravity: .smart, frameBudgetBytes: 320_000)
        XCTAssertEqual(VariantRenderer.estimatedDecodeMemory(wide, targets: [smart], passBudget: 64 << 20),
                       1000 * 500 * 8 + 3 * 8 * 200 * 100 * 4)
        // Many targets: at most the pass budget beside the largest (1000x1000 fits 750x1000 of the
        // 3000x4000 picture).
        let sizes = (1...20).map { DecodingOptions(targetSize: PixelSize(width: 50 * $0, height: 50 * $0)) }
        XCTAssertEqual(VariantRenderer.estimatedDecodeMemory(jpeg, targets: sizes, passBudget: 1 << 20),
                       4000 * 3000 * 4 + 3 * (750 * 1000 * 4 + (1 << 20)))
        // A target over the output limit fails before allocating: it counts nothing.
        let huge = DecodingOptions(targetSize: PixelSize(width: 60_000, height: 60_000), allowsUpscaling: true)
        XCTAssertEqual(VariantRenderer.estimatedDecodeMemory(jpeg, targets: [huge], passBudget: 64 << 20), 4000 * 3000 * 4)
    }

    func testDecodesWhoseEstimatesDoNotFitTogetherRunOneAtATime() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-gate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let loader = CountingLoader()
        let urls = (0..<4).map { URL(string: "https://example.test/\($0).png")! }
        for (index, url) in urls.enumerated() {
            loader.serve(url, .init(data: try PNGEncoder.encode(TestImages.scene(width: 600, height: 600, seed: UInt64(index)))))
        }
        func peak(decodingMemory: Int) async throws -> (cost: Int, pieces: Int) {
            var disk = DiskCache.Configuration(root: root.appendingPathComponent("\(decodingMemory)"))
            disk.syncWrites = false
            let pipeline = try ImagePipeline(configuration: ImagePipeline.Configuration(
                dataLoader: loader, diskCache: disk, maxConcurrentDecodes: 4, decodingMemoryBytes: decodingMemory))
            let results = await pipeline.prefetch(urls.map { ImageRequest(url: $0, target: .pixels(PixelSize(width: 100, height: 100))) })
            for result in results { _ = try result.get() }
            return await pipeline.preparer.renderer.decodeMemory.peak
        }
        // Each estimate is 600 x 600 x 4 + 3 x 100 x 100 x 4 = 1,560,000 bytes.
        let tight = try await peak(decodingMemory: 2 << 20)
        XCTAssertEqual(tight.pieces, 1, "two decodes of 1.56 MB do not fit in 2 MiB")
        XCTAssertEqual(tight.cost, 1_560_000)
        let roomy = try await peak(decodingMemory: 1 << 30)
        XCTAssertLessThanOrEqual(roomy.cost, roomy.pieces * 1_560_000)
    }
}
