import Foundation
import TestSupport
import XCTest

@testable import ImgCache

/// A loader runs at most four attempts at once to one server (its connections to it); the others
/// wait their turn in the loader, where neither libcurl's queue (which lets later requests
/// overtake) nor the connect time-out applies to them.
final class DataLoaderConnectionSlotTests: FaultServerTestCase {
    /// Four bodies that take over 3 s each (headers at once, then a byte every 0.4 s) hold the
    /// four places; four loads started behind them wait those seconds, three times the connect
    /// time-out, and then load on their first attempt.
    func testLoadsPastFourToOneServerWaitForAPlaceWithoutTheirConnectTimeout() async throws {
        let loader = loader {
            $0.connectTimeout = 1
            $0.retryPolicy = .none
        }
        let slots = try XCTUnwrap(loader.connectionSlots)
        let origin = HTTPOrigin(server.url("/"))
        let running = (0..<4).map { server.url("/slow?interval=0.4&bytes=8&n=\($0)") }.map { url in
            Task { try await loader.load(DataRequest(url: url)) }
        }
        try await waitUntil("four slow bodies are under way") { try await server.count("/slow") == 4 }
        let waiting = (0..<4).map { server.url("/ok.jpg?n=\($0)") }.map { url in
            Task { try await loader.load(DataRequest(url: url)) }
        }
        try await waitUntil("four loads wait for a place") { slots.waitingCount(for: origin) == 4 }
        let early = try await server.count("/ok.jpg")
        XCTAssertEqual(early, 0, "nothing past the four places reaches the server")

        for task in running {
            let response = try await task.value
            XCTAssertEqual(response.data.count, 8)
        }
        for task in waiting {
            let response = try await task.value
            XCTAssertEqual(response.data, server.image)
            XCTAssertEqual(response.attempts, 1)
        }
        let loaded = try await server.count("/ok.jpg")
        XCTAssertEqual(loaded, 4)
        XCTAssertEqual(slots.waitingCount(for: origin), 0)
    }

    /// A load cancelled while it waits for a place ends at once with `CancellationError`; its turn
    /// passes to the next one when it comes.
    func testALoadCancelledWhileItWaitsEndsAtOnceAndItsTurnPassesOn() async throws {
        let loader = loader { $0.connectTimeout = 30 }
        let slots = try XCTUnwrap(loader.connectionSlots)
        let origin = HTTPOrigin(server.url("/"))
        let held = (0..<4).map { server.url("/hold/\($0)") }.map { url in Task { try await loader.load(DataRequest(url: url)) } }
        try await waitUntil("four held answers") { try await server.arrivals().count == 4 }
        let cancelledURL = server.url("/ok.jpg?cancelled"), nextURL = server.url("/ok.jpg?next")
        let cancelled = Task { try await loader.load(DataRequest(url: cancelledURL)) }
        try await waitUntil("the load waits for a place") { slots.waitingCount(for: origin) == 1 }
        let next = Task { try await loader.load(DataRequest(url: nextURL)) }
        try await waitUntil("the next load waits behind it") { slots.waitingCount(for: origin) == 2 }

        cancelled.cancel()
        do {
            _ = try await cancelled.value
            XCTFail("a cancelled load succeeded")
        } catch is CancellationError {}
        let sent = try await server.count("/ok.jpg")
        XCTAssertEqual(sent, 0, "the cancelled load sent nothing, and the held answers hold every place")

        try await server.release(nil)
        for task in held + [next] {
            let response = try await task.value
            XCTAssertEqual(response.data, server.image)
        }
        let loaded = try await server.count("/ok.jpg")
        XCTAssertEqual(loaded, 1, "only the next load was sent")
        XCTAssertEqual(slots.waitingCount(for: origin), 0)
    }
}
