import Foundation
import ImgCache
import TestSupport
import XCTest

/// Bodies and connections that go wrong, against the fault server.
final class DataLoaderTransferFaultTests: FaultServerTestCase {
    func testServerThatNeverAnswersTimesOutAfterTheConnectTimeout() async throws {
        let (error, elapsed) = await failure("/stall", with: loader { $0.connectTimeout = 1 })
        XCTAssertEqual(error, .timeout(url: server.url("/stall").absoluteString, seconds: 1))
        let count = try await server.count("/stall")
        XCTAssertEqual(count, 1, "a time-out is not retried")
        XCTAssertGreaterThanOrEqual(elapsed, 1)
        XCTAssertLessThan(elapsed, 2)
    }

    func testATransferThatFailsBeforeItsHeadersHangsUpAtOnce() async throws {
        for reusesConnections in [true, false] {
            let (error, _) = await failure("/stall", with: loader {
                $0.connectTimeout = 0.5
                $0.reusesConnections = reusesConnections
            })
            XCTAssertEqual(error, .timeout(url: server.url("/stall").absoluteString, seconds: 0.5))
            let failed = Date()
            // The server waits 30 s for the hang-up; it must come at once.
            try await waitUntil("the server sees the hang-up (reuse \(reusesConnections))") { try await server.stallEnd() != nil }
            let end = try await server.stallEnd()
            let hungUp = try XCTUnwrap(end)
            XCTAssertLessThan(hungUp.timeIntervalSince(failed), 1, "reuse \(reusesConnections)")
        }
    }

    func testStalledBodyTimesOutAfterTheIdleTimeout() async throws {
        let (error, elapsed) = await failure("/slow?interval=5", with: loader())
        XCTAssertEqual(error, .timeout(url: server.url("/slow?interval=5").absoluteString, seconds: 1))
        XCTAssertGreaterThanOrEqual(elapsed, 1)
        XCTAssertLessThan(elapsed, 2)
    }

    func testTricklingBodyTimesOutAfterTheOverallTimeout() async throws {
        let path = "/slow?interval=0.2&bytes=100"
        let (error, elapsed) = await failure(path, with: loader { $0.overallTimeout = 2 })
        XCTAssertEqual(error, .timeout(url: server.url(path).absoluteString, seconds: 2))
        XCTAssertGreaterThanOrEqual(elapsed, 2)
        XCTAssertLessThan(elapsed, 3)
    }

    func testTruncatedBodyIsANetworkErrorAfterRetries() async throws {
        let (error, elapsed) = await failure("/truncated", with: loader())
        guard case .network(let url, let detail)? = error else {
            return XCTFail("expected .network, got \(String(describing: error))")
        }
        XCTAssertEqual(url, server.url("/truncated").absoluteString)
        XCTAssertTrue(detail.contains("truncated"), detail)
        let count = try await server.count("/truncated")
        XCTAssertEqual(count, 3)
        XCTAssertLessThan(elapsed, 3)
    }

    func testConnectionResetIsANetworkErrorAfterRetries() async throws {
        let (error, elapsed) = await failure("/reset", with: loader())
        guard case .network(let url, _)? = error else {
            return XCTFail("expected .network, got \(String(describing: error))")
        }
        XCTAssertEqual(url, server.url("/reset").absoluteString)
        let count = try await server.count("/reset")
        XCTAssertEqual(count, 3)
        XCTAssertLessThan(elapsed, 3)
    }

    func testBodyLongerThanItsContentLengthNeverReachesTheNextResponse() async throws {
        let loader = loader()
        let (lie, _) = try await load("/lie", with: loader)
        // Only the declared bytes are read; what follows them on the connection is dropped with it.
        XCTAssertEqual(lie.data, Data(repeating: UInt8(ascii: "a"), count: 1000))
        let (next, elapsed) = try await load("/ok.jpg", with: loader)
        XCTAssertEqual(next.data, server.image)
        XCTAssertEqual(next.attempts, 1)
        XCTAssertLessThan(elapsed, 2)
        let lying = try await server.connections("/lie")
        let connections = try await server.connections("/ok.jpg")
        XCTAssertNotEqual(connections, lying, "the next request came over a new connection")
    }

    func testEndlessBodyIsCutOffAtTheByteLimit() async throws {
        // As fast as loopback goes. (FoundationNetworking may go on reading for a while after the
        // cancel at this speed; tearDown's kill of the server ends that.)
        let (error, elapsed) = await failure("/endless", with: loader())
        guard case .tooLarge(let bytes, let limit)? = error else {
            return XCTFail("expected .tooLarge, got \(String(describing: error))")
        }
        XCTAssertEqual(limit, 1 << 20)
        XCTAssertGreaterThan(bytes, limit)
        XCTAssertLessThan(bytes, limit + (1 << 20), "cut off as soon as the limit passed")
        XCTAssertLessThan(elapsed, 2)
    }

    func testEndlessBodyAtNetworkSpeedIsDisconnectedAtOnce() async throws {
        // 64 MiB a second, faster than most links a server sits behind.
        let (error, elapsed) = await failure("/endless?rate=67108864", with: loader())
        let failed = Date()
        guard case .tooLarge? = error else {
            return XCTFail("expected .tooLarge, got \(String(describing: error))")
        }
        XCTAssertLessThan(elapsed, 1)
        try await waitUntil("the server sees the hang-up") { try await server.endlessEnd() != nil }
        let end = try await server.endlessEnd()
        let (bytes, closed) = try XCTUnwrap(end)
        XCTAssertLessThan(closed.timeIntervalSince(failed), 0.5)
        XCTAssertLessThan(bytes, 8 << 20)
        let count = try await server.count("/endless")
        XCTAssertEqual(count, 1)
    }

    func testGzipBodyIsDecodedAndItsDecodedBytesCountTowardsTheLimit() async throws {
        let (image, _) = try await load("/gzip", with: loader())
        XCTAssertEqual(image.data, server.image)
        // 64 MiB of zeros, 64 KiB on the wire: a decompression bomb.
        let (error, elapsed) = await failure("/gzip?bytes=67108864", with: loader())
        guard case .tooLarge(let bytes, let limit)? = error else {
            return XCTFail("expected .tooLarge, got \(String(describing: error))")
        }
        XCTAssertEqual(limit, 1 << 20)
        XCTAssertGreaterThan(bytes, limit)
        XCTAssertLessThan(bytes, 2 << 20)
        XCTAssertLessThan(elapsed, 2)
    }

    func testContentLengthOverTheLimitIsRefusedBeforeTheBody() async throws {
        // The server sends the headers at once and the body only after 10 s.
        let (error, elapsed) = await failure("/big?length=5000000", with: loader())
        XCTAssertEqual(error, .tooLarge(bytes: 5_000_000, limit: 1 << 20))
        let count = try await server.count("/big")
        XCTAssertEqual(count, 1)
        XCTAssertLessThan(elapsed, 5, "refused before the body, due in 10 s")
    }

    func testCancellingTheTaskEndsTheTransfer() async throws {
        let loader = loader { $0.connectTimeout = 20 }
        let url = server.url("/stall")
        let start = Date()
        let task = Task { try await loader.load(DataRequest(url: url)) }
        try await waitUntil("the request reaches the server") { try await server.count("/stall") == 1 }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled load succeeded")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "ended by the cancel, not the 20 s connect time-out")
    }
}
