import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import ImgCacheServer
import XCTest

/// Graceful shutdown: stop accepting, let requests in flight finish, then stop.
final class HTTPServerShutdownTests: XCTestCase {
    func testShutdownLetsTwentyRequestsInFlightFinishThenRefusesConnections() async throws {
        let gate = Gate()
        let server = try startServer { request in
            if request.path != "/direct" { await gate.pass(request.path) }
            return .text(status: 200, request.path)
        }
        let kept = try RawConnection(port: server.address.port)
        try kept.send("GET /direct HTTP/1.1\r\nHost: t\r\n\r\n")
        XCTAssertEqual(try kept.readResponse().status, 200)

        let client = Client()
        let requests = (0..<20).map { index in Task { try await client.send(server.url("/held/\(index)")) } }
        let arrived = await gate.awaitArrivals(20)
        XCTAssertEqual(Set(arrived), Set((0..<20).map { "/held/\($0)" }))
        XCTAssertEqual(server.statistics.requestsInFlight, 20)

        let shutdown = Task { await server.shutdown(drainSeconds: 30) }
        try await waitUntil("the server drains") { server.state == .draining }
        XCTAssertThrowsError(try RawConnection(port: server.address.port)) { error in
            XCTAssertEqual((error as? RawConnection.ConnectFailure)?.code, ECONNREFUSED)
        }
        // A connection already open is still answered, and told to close.
        try kept.send("GET /direct HTTP/1.1\r\nHost: t\r\n\r\n")
        let late = try kept.readResponse()
        XCTAssertEqual(late.status, 200)
        XCTAssertEqual(late.headers["connection"], "close")
        XCTAssertTrue(kept.isClosedByServer())

        gate.open()
        for (index, request) in requests.enumerated() {
            let (data, response) = try await request.value
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), "/held/\(index)\n")
        }
        let summary = await shutdown.value
        XCTAssertEqual(summary.requestsInFlight, 20)
        XCTAssertEqual(summary.requestsDrained, 21)
        XCTAssertEqual(summary.requestsCutOff, 0)
        XCTAssertEqual(server.state, .stopped)
        XCTAssertThrowsError(try RawConnection(port: server.address.port)) { error in
            XCTAssertEqual((error as? RawConnection.ConnectFailure)?.code, ECONNREFUSED)
        }
        // A second call waits for the same shutdown.
        let again = await server.shutdown(drainSeconds: 30)
        XCTAssertEqual(again, summary)
    }

    /// A handler still running when the drain time (0.5 s) runs out: its client gets 503 and the
    /// server stops. Bounds: no sooner than the drain time, and within it plus the 1 s given to
    /// the 503s and 3.5 s of slack for a loaded machine (the handler itself never returns).
    func testShutdownAnswers503ToRequestsStillRunningWhenTheDrainEnds() async throws {
        let gate = Gate()
        let server = try startServer { request in
            await gate.pass(request.path)
            return .text(status: 200, "too late")
        }
        defer { gate.open() }
        let request = Task { try await Client().send(server.url("/stuck")) }
        _ = await gate.awaitArrivals(1)

        let start = ContinuousClock.now
        let summary = await server.shutdown(drainSeconds: 0.5)
        let elapsed = ContinuousClock.now - start
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(500))
        XCTAssertLessThan(elapsed, .seconds(5))
        XCTAssertEqual(summary.requestsInFlight, 1)
        XCTAssertEqual(summary.requestsDrained, 0)
        XCTAssertEqual(summary.requestsCutOff, 1)
        XCTAssertEqual(server.state, .stopped)

        let (data, response) = try await request.value
        XCTAssertEqual(response.statusCode, 503)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Retry-After"), "1")
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "the server is shutting down\n")
    }

    /// A client that hangs up while its handler runs (libmicrohttpd does not watch a suspended
    /// connection) leaves nothing in flight once the handler answers, so a drain does not wait
    /// for it.
    func testAClientThatHangsUpWhileItsHandlerRunsLeavesNothingInFlight() async throws {
        let gate = Gate()
        let server = try startServer { request in
            await gate.pass(request.path)
            return .text(status: 200, "nobody listens")
        }
        let connection = try RawConnection(port: server.address.port)
        try connection.send("GET /gone HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = await gate.awaitArrivals(1)
        connection.hangUp()
        XCTAssertEqual(server.statistics.requestsInFlight, 1)
        gate.open()
        try await waitUntil("the request is completed") {
            server.statistics.requestsInFlight == 0 && server.statistics.openConnections == 0
        }
        let start = ContinuousClock.now
        let summary = await server.shutdown(drainSeconds: 30)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), "no wait for the 30 s drain")
        XCTAssertEqual(summary.requestsInFlight, 0)
        XCTAssertEqual(summary.requestsCutOff, 0)
    }

    func testTerminationSignalsCallTheHandlerInsteadOfEndingTheProcess() async throws {
        // Twice: a second installation, after the first is cancelled, catches the signals too.
        for round in 1...2 {
            let (received, receive) = AsyncStream.makeStream(of: Int32.self)
            let signals = TerminationSignals { receive.yield($0) }
            var iterator = received.makeAsyncIterator()
            kill(getpid(), SIGTERM)
            let first = await iterator.next()
            XCTAssertEqual(first, SIGTERM, "round \(round)")
            kill(getpid(), SIGINT)
            let second = await iterator.next()
            XCTAssertEqual(second, SIGINT, "round \(round)")
            signals.cancel()
        }
    }
}
