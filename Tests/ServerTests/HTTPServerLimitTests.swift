import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCacheServer
import Synchronization
import XCTest

/// The limits: request size, handlers in flight and queued, the request time-out, slow clients.
final class HTTPServerLimitTests: XCTestCase {
    func testATargetOverTheLimitIs414AndOneAtItIsServed() async throws {
        let server = try startServer { request in .text(status: 200, "\(request.path.utf8.count)") }
        let atLimit = try RawConnection(port: server.address.port)
        try atLimit.send("GET /\(String(repeating: "a", count: 8191)) HTTP/1.1\r\nHost: t\r\n\r\n")
        let served = try atLimit.readResponse()
        XCTAssertEqual(served.status, 200)
        XCTAssertEqual(String(decoding: served.body, as: UTF8.self), "8192\n")

        let over = try RawConnection(port: server.address.port)
        try over.send("GET /\(String(repeating: "a", count: 8192)) HTTP/1.1\r\nHost: t\r\n\r\n")
        let refused = try over.readResponse()
        XCTAssertEqual(refused.status, 414)
        XCTAssertEqual(String(decoding: refused.body, as: UTF8.self), "the request target is over 8192 bytes\n")
        XCTAssertTrue(over.isClosedByServer())
        await server.shutdown(drainSeconds: 1)
    }

    func testHeadersOverTheLimitAre431AndHeadersAtItAreServed() async throws {
        let server = try startServer { request in .text(status: 200, "\(request.headers["x-big"]?.count ?? 0)") }
        // "GET /x HTTP/1.1\r\n" + "Host: t\r\n" + "X-Big: " + value + "\r\n" + "\r\n" = 37 bytes + value.
        let atLimit = try RawConnection(port: server.address.port)
        try atLimit.send("GET /x HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 16384 - 37))\r\n\r\n")
        let served = try atLimit.readResponse()
        XCTAssertEqual(served.status, 200)
        XCTAssertEqual(String(decoding: served.body, as: UTF8.self), "\(16384 - 37)\n")

        let over = try RawConnection(port: server.address.port)
        try over.send("GET /x HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 16385 - 37))\r\n\r\n")
        let refused = try over.readResponse()
        XCTAssertEqual(refused.status, 431)
        XCTAssertEqual(String(decoding: refused.body, as: UTF8.self), "the request line and header fields are over 16384 bytes\n")
        await server.shutdown(drainSeconds: 1)
    }

    /// Past `connectionMemoryBytes` (64 KiB) the request never reaches the server's checks:
    /// libmicrohttpd answers 414 or 431 itself, with its own line of HTML, and closes.
    func testRequestsPastTheConnectionMemoryGetLibmicrohttpdsOwn414And431() async throws {
        let server = try startServer { _ in .text(status: 200, "never") }
        let mhdBody = "<html><head><title>Request too big</title></head><body>Your HTTP header was too big for the memory constraints of this webserver.</body></html>"
        let longURL = try RawConnection(port: server.address.port)
        try longURL.send("GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: t\r\n\r\n")
        let uriTooLong = try longURL.readResponse()
        XCTAssertEqual(uriTooLong.status, 414)
        XCTAssertEqual(String(decoding: uriTooLong.body, as: UTF8.self), mhdBody)
        XCTAssertEqual(uriTooLong.headers["connection"], "close")

        let bigHeader = try RawConnection(port: server.address.port)
        try bigHeader.send("GET /x HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 100_000))\r\n\r\n")
        let headersTooLarge = try bigHeader.readResponse()
        XCTAssertEqual(headersTooLarge.status, 431)
        XCTAssertEqual(String(decoding: headersTooLarge.body, as: UTF8.self), mhdBody)

        // Through URLSession too: a 40 KB URL and a 40 KB header get the server's own answers.
        let client = Client()
        let (urlBody, urlResponse) = try await client.send(server.url("/" + String(repeating: "u", count: 40_000)))
        XCTAssertEqual(urlResponse.statusCode, 414)
        XCTAssertEqual(String(decoding: urlBody, as: UTF8.self), "the request target is over 8192 bytes\n")
        let (headerBody, headerResponse) = try await client.send(server.url("/x"), headers: ["X-Big": String(repeating: "h", count: 40_000)])
        XCTAssertEqual(headerResponse.statusCode, 431)
        XCTAssertEqual(String(decoding: headerBody, as: UTF8.self), "the request line and header fields are over 16384 bytes\n")
        await server.shutdown(drainSeconds: 1)
    }

    func testConnectionsBeyondTheLimitAreNotServedUntilOneCloses() async throws {
        let server = try startServer({ $0.maxConnections = 3 }) { request in .text(status: 200, request.path) }
        var open: [RawConnection] = []
        for index in 0..<3 {
            let connection = try RawConnection(port: server.address.port)
            try connection.send("GET /\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            XCTAssertEqual(try connection.readResponse().status, 200)
            open.append(connection)
        }
        let fourth = try RawConnection(port: server.address.port)
        try fourth.send("GET /fourth HTTP/1.1\r\nHost: t\r\n\r\n")
        let answered = Task.detached { try fourth.readResponse() }
        XCTAssertEqual(server.statistics.connectionsAccepted, 3)
        open.removeFirst()
        let response = try await answered.value
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "/fourth\n")
        XCTAssertEqual(server.statistics.connectionsAccepted, 4)
        await server.shutdown(drainSeconds: 1)
    }

    /// With a 1 s idle time-out, a client that sends half a request and then nothing, and a
    /// kept-alive connection left idle, are both closed: no sooner than 1 s, and before 5 s
    /// (libmicrohttpd checks time-outs about once a second; slack for a loaded machine, well
    /// short of the default 10 s).
    func testIdleConnectionsAreClosedAfterTheIdleTimeout() async throws {
        let server = try startServer({ $0.idleTimeout = 1 }) { request in .text(status: 200, request.path) }
        let silent = try RawConnection(port: server.address.port)
        try silent.send("GET /half HTTP/1.1\r\nHost: t\r\nX-Half: ")
        let idle = try RawConnection(port: server.address.port)
        try idle.send("GET /once HTTP/1.1\r\nHost: t\r\n\r\n")
        XCTAssertEqual(try idle.readResponse().status, 200)

        let start = ContinuousClock.now
        async let silentClosed = Task.detached { silent.isClosedByServer() }.value
        async let idleClosed = Task.detached { idle.isClosedByServer() }.value
        let closed = await (silentClosed, idleClosed)
        let elapsed = ContinuousClock.now - start
        XCTAssertTrue(closed.0)
        XCTAssertTrue(closed.1)
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(900))
        XCTAssertLessThan(elapsed, .seconds(5))
        try await waitUntil("both connections are gone") { server.statistics.openConnections == 0 }
        await server.shutdown(drainSeconds: 1)
    }

    /// One handler slot and one place in the queue: of three requests, one runs, one waits and
    /// one is refused at once; the waiting one runs when the first finishes.
    func testAFullQueueIsAnswered503WithRetryAfter() async throws {
        let gate = Gate()
        let server = try startServer({
            $0.maxInFlight = 1
            $0.maxQueued = 1
            $0.retryAfter = 7
        }) { request in
            await gate.pass(request.path)
            return .text(status: 200, request.path)
        }
        let client = Client()
        let first = Task { try await client.send(server.url("/first")) }
        let running = await gate.awaitArrivals(1)
        XCTAssertEqual(running, ["/first"])

        let (responses, refusals) = AsyncStream.makeStream(of: (String, Data, HTTPURLResponse).self)
        let others = ["/second", "/third"].map { path in
            Task {
                let (data, response) = try await client.send(server.url(path))
                refusals.yield((path, data, response))
            }
        }
        var iterator = responses.makeAsyncIterator()
        let firstAnswer = await iterator.next()
        let refused = try XCTUnwrap(firstAnswer)
        XCTAssertEqual(refused.2.statusCode, 503)
        XCTAssertEqual(refused.2.value(forHTTPHeaderField: "Retry-After"), "7")
        XCTAssertEqual(String(decoding: refused.1, as: UTF8.self), "too busy: 1 running, 1 waiting\n")
        XCTAssertEqual(server.statistics.refusedRequests, 1)
        XCTAssertEqual(server.statistics.handlersRunning, 1)
        XCTAssertEqual(server.statistics.requestsQueued, 1)

        gate.open()
        let (firstData, firstResponse) = try await first.value
        XCTAssertEqual(firstResponse.statusCode, 200)
        XCTAssertEqual(String(decoding: firstData, as: UTF8.self), "/first\n")
        let secondAnswer = await iterator.next()
        let queued = try XCTUnwrap(secondAnswer)
        XCTAssertEqual(queued.2.statusCode, 200)
        XCTAssertEqual(String(decoding: queued.1, as: UTF8.self), "\(queued.0)\n")
        XCTAssertNotEqual(queued.0, refused.0)
        for task in others { try await task.value }
        await server.shutdown(drainSeconds: 1)
    }

    /// A handler past the time-out: its client gets 504 (and the handler is cancelled), while a
    /// request that waited the whole time-out in the queue gets 503 (it never ran). Bounds: the
    /// answer comes no sooner than the time-out (0.5 s), and before 5 s (slack for a loaded
    /// machine, far short of the default 30 s).
    func testARequestPastItsTimeoutIs504WhenRunningAnd503WhenQueued() async throws {
        let gate = Gate()
        let cancelled = Mutex(false)
        let server = try startServer({
            $0.maxInFlight = 1
            $0.maxQueued = 1
            $0.requestTimeout = 0.5
        }) { request in
            await withTaskCancellationHandler {
                await gate.pass(request.path)
            } onCancel: {
                cancelled.withLock { $0 = true }
            }
            return .text(status: 200, "late")
        }
        let client = Client()
        let start = ContinuousClock.now
        let slow = Task { try await client.send(server.url("/slow")) }
        _ = await gate.awaitArrivals(1)
        let queued = Task { try await client.send(server.url("/queued")) }

        let (slowData, slowResponse) = try await slow.value
        let slowElapsed = ContinuousClock.now - start
        XCTAssertEqual(slowResponse.statusCode, 504)
        XCTAssertEqual(String(decoding: slowData, as: UTF8.self), "the handler did not answer within 0.5 s\n")
        XCTAssertGreaterThanOrEqual(slowElapsed, .milliseconds(500))
        XCTAssertLessThan(slowElapsed, .seconds(5))
        XCTAssertTrue(cancelled.withLock { $0 })

        let (queuedData, queuedResponse) = try await queued.value
        XCTAssertEqual(queuedResponse.statusCode, 503)
        XCTAssertEqual(queuedResponse.value(forHTTPHeaderField: "Retry-After"), "1")
        XCTAssertEqual(String(decoding: queuedData, as: UTF8.self), "too busy: no handler was free within 0.5 s\n")
        // The timed-out handler ignores cancellation: it keeps its slot until it returns.
        XCTAssertEqual(server.statistics.handlersRunning, 1)
        XCTAssertEqual(server.statistics.handlerTimeouts, 1)
        XCTAssertEqual(server.statistics.queueTimeouts, 1)
        gate.open()
        try await waitUntil("the handler's slot is free") { server.statistics.handlersRunning == 0 }
        await server.shutdown(drainSeconds: 1)
    }

    /// 500 connections send their headers one byte a second (Tests/Servers/slow_clients.py) while
    /// normal requests are made: each is answered within 1 s (measured: a few milliseconds; the
    /// bound is the feature, with room for a loaded machine).
    func testFiveHundredSlowClientsDoNotDelayANormalRequest() async throws {
        let server = try startServer { request in .text(status: 200, request.path) }
        let slow = try PythonScript("slow_clients.py", arguments: ["--port", "\(server.address.port)", "--connections", "500"])
        defer { slow.stop() }
        let ready = await slow.nextLine()
        XCTAssertEqual(ready, "connected 500")
        try await waitUntil("500 connections are open") { server.statistics.openConnections >= 500 }

        // Three requests in each of five rounds of slow bytes, every other one on a new connection.
        let client = Client()
        var slowest = Duration.zero
        var lastRound = ""
        for round in 0..<5 {
            for index in 0..<3 {
                let path = "/normal/\(round)/\(index)"
                let start = ContinuousClock.now
                let (data, response) = try await client.send(server.url(path), headers: index == 1 ? ["Connection": "close"] : [:])
                let elapsed = ContinuousClock.now - start
                slowest = max(slowest, elapsed)
                XCTAssertEqual(response.statusCode, 200)
                XCTAssertEqual(String(decoding: data, as: UTF8.self), "\(path)\n")
                XCTAssertLessThan(elapsed, .seconds(1), path)
            }
            lastRound = await slow.nextLine() ?? ""
        }
        XCTAssertEqual(lastRound, "round 5 closed 0")
        XCTAssertGreaterThanOrEqual(server.statistics.openConnections, 500, "the slow clients stayed connected")
        print("slowest of 15 requests beside 500 slow clients: \(slowest)")
        await server.shutdown(drainSeconds: 1)
    }
}
