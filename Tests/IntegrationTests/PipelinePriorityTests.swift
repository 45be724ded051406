import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// Priorities against an origin whose answers the test holds and lets go one at a time: the fault
/// server's /hold/NAME records each request's arrival, so the order downloads start in is exact.
final class PipelinePriorityTests: FaultServerTestCase {
    private var root: URL!

    override func setUp() async throws {
        try await super.setUp()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-priority-\(UUID().uuidString)")
    }

    override func tearDown() async throws {
        try? await server?.release(nil)
        try? FileManager.default.removeItem(at: root)
        try await super.tearDown()
    }

    /// One download at a time, so that every other request waits in the download queue, with
    /// time-outs longer than the test holds an answer.
    private func pipeline() throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        var loading = Self.configuration
        (loading.connectTimeout, loading.requestTimeout, loading.overallTimeout) = (60, 60, 120)
        return try ImagePipeline(configuration: ImagePipeline.Configuration(
            loading: loading, diskCache: disk, maxConcurrentLoads: 1, maxConcurrentDecodes: 1))
    }

    private func request(_ name: String, _ priority: ImageRequest.Priority) -> ImageRequest {
        ImageRequest(url: server.url("/hold/\(name)"), target: .pixels(PixelSize(width: 16, height: 16)), priority: priority)
    }

    func testHigherPrioritiesStartTheirDownloadsFirstAndARaisedOrJoinedRequestMovesUp() async throws {
        let pipeline = try pipeline()
        let loads = pipeline.preparer.originals.loads
        let lows = (0..<200).map { request("low-\($0)", .low) }
        let prefetch = Task { await pipeline.prefetch(lows) }
        defer { prefetch.cancel() }
        try await waitUntil("the first low download arrives") { try await server.arrivals().count == 1 }
        try await waitUntil("lows wait behind it") { await loads.waitingCount(at: .low) > 0 }
        let first = try await server.arrivals()
        XCTAssertTrue(first[0].hasPrefix("low-"))

        // A high request queued behind the lows starts next.
        let high = pipeline.task(for: request("high", .high))
        try await waitUntil("the high request waits") { await loads.waitingCount(at: .high) == 1 }
        try await server.release()
        try await waitUntil("a second download arrives") { try await server.arrivals().count == 2 }
        let firstTwo = try await server.arrivals()
        XCTAssertEqual(firstTwo, first + ["high"])

        // A very low task raised to very high while it waits starts next.
        let raised = pipeline.task(for: request("raised", .veryLow))
        try await waitUntil("the very low task waits") { await loads.waitingCount(at: .veryLow) == 1 }
        raised.priority = .veryHigh
        XCTAssertEqual(raised.priority, .veryHigh)
        try await waitUntil("it waits at very high") { await loads.waitingCount(at: .veryHigh) == 1 }
        try await server.release()
        try await waitUntil("a third download arrives") { try await server.arrivals().count == 3 }

        // A high request for an image a low request already waits for joins its download, which
        // moves up to high.
        let lowJoined = request("joined", .low)
        let lowsWaiting = await loads.waitingCount(at: .low)
        let joined = Task { try await pipeline.image(for: lowJoined) }
        try await waitUntil("the low request for it waits") { await loads.waitingCount(at: .low) == lowsWaiting + 1 }
        let joining = pipeline.task(for: request("joined", .high))
        try await waitUntil("the shared download waits at high") { await loads.waitingCount(at: .high) == 1 }
        try await server.release()
        try await waitUntil("a fourth download arrives") { try await server.arrivals().count == 4 }
        let firstFour = try await server.arrivals()
        XCTAssertEqual(firstFour, first + ["high", "raised", "joined"])

        try await server.release(nil)
        let responses = try await [high.response, raised.response, joined.value, joining.response]
        XCTAssertEqual(responses.map(\.pixelSize), Array(repeating: PixelSize(width: 16, height: 12), count: 4))
        let all = try await server.arrivals()
        XCTAssertEqual(all.filter { $0 == "joined" }.count, 1, "one download for both")
    }
}
