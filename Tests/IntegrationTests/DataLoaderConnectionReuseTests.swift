import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import XCTest

/// Kept-alive connections, what a response that lies about its end can do to the next one, and
/// what failures of other servers leave of them, by the fault server's record of the connection
/// each request came over.
final class DataLoaderConnectionReuseTests: FaultServerTestCase {
    func testSequentialLoadsFromOneHostShareOneConnection() async throws {
        let loader = loader()
        for _ in 0..<5 {
            let (response, _) = try await load("/ok.jpg", with: loader)
            XCTAssertEqual(response.data, server.image)
        }
        let connections = try await server.connections("/ok.jpg")
        XCTAssertEqual(connections.count, 5)
        XCTAssertEqual(Set(connections).count, 1, "one kept-alive connection: \(connections)")
    }

    func testEachAttemptHasAConnectionOfItsOwnWhenReuseIsOff() async throws {
        let loader = loader { $0.reusesConnections = false }
        for _ in 0..<3 { _ = try await load("/ok.jpg", with: loader) }
        let connections = try await server.connections("/ok.jpg")
        XCTAssertEqual(Set(connections).count, 3, "a new connection each time: \(connections)")
    }

    func testJunkAfterAResponseIsDroppedAndTheNextRequestRetriedOnANewConnection() async throws {
        let loader = loader()
        let (first, _) = try await load("/lie-late", with: loader)
        XCTAssertEqual(first.data, server.image)
        try await server.waitForLateBytes()
        let (next, _) = try await load("/ok.jpg", with: loader)
        XCTAssertEqual(next.data, server.image)
        let lying = try await server.connections("/lie-late")
        let connections = try await server.connections("/ok.jpg")
        // libcurl 7.88 sends the request over the connection that holds the junk, reads the junk as
        // an HTTP/0.9 reply and fails; the retry goes over a new connection.
        XCTAssertEqual(next.attempts, 2)
        XCTAssertEqual(connections.count, 2)
        XCTAssertEqual(connections.first, lying.first)
        XCTAssertNotEqual(connections.last, lying.first, "the right bytes came over a new connection")
    }

    func testJunkAfterAResponseFailsTheNextAttemptAsANetworkError() async throws {
        let loader = loader { $0.retryPolicy = .none }
        _ = try await load("/lie-late", with: loader)
        try await server.waitForLateBytes()
        let (error, _) = await failure("/ok.jpg", with: loader)
        guard case .network(_, let detail)? = error else {
            return XCTFail("expected .network, got \(String(describing: error))")
        }
        XCTAssertTrue(detail.contains("not an HTTP response"), detail)
        let (next, _) = try await load("/ok.jpg", with: loader)
        XCTAssertEqual(next.data, server.image)
    }

    func testAFramingFailureRetiresEveryConnectionOfTheLoader() async throws {
        let loader = loader { $0.retryPolicy = .none }
        // Two loads at once leave two idle connections.
        let url = server.url("/delay?seconds=0.5")
        async let first = loader.load(DataRequest(url: url))
        async let second = loader.load(DataRequest(url: url))
        _ = try await (first, second)
        let idle = try await server.connections("/delay")
        XCTAssertEqual(Set(idle).count, 2, "\(idle)")
        // A body cut short on one of them...
        _ = await failure("/truncated", with: loader)
        // ...and the next request does not go over the other.
        _ = try await load("/ok.jpg", with: loader)
        let next = try await server.connections("/ok.jpg")
        XCTAssertEqual(next.count, 1)
        XCTAssertFalse(idle.contains(next[0]), "\(next[0]) is one of \(idle)")
    }

    func testAForgedLateResponseNeverReachesAnotherServer() async throws {
        let other = try FaultServer(seed: 100)
        defer { other.stop() }
        XCTAssertNotEqual(other.image, server.image)
        let loader = loader()
        let (first, _) = try await load("/forge-late", with: loader)
        XCTAssertEqual(first.data, server.image)
        try await server.waitForLateBytes()
        for _ in 0..<2 {
            let response = try await loader.load(DataRequest(url: other.url("/ok.jpg")))
            XCTAssertEqual(response.data, other.image)
            XCTAssertEqual(response.attempts, 1)
        }
    }

    /// Servers that never answered the loader (a closed port, a host name no resolver can find, a
    /// TLS handshake with a server that speaks no TLS, a server that resets every connection)
    /// fail with `.network`, and the loader keeps its connection to the server that did answer.
    func testFailuresOfServersThatNeverAnsweredKeepTheOtherConnections() async throws {
        let resetting = try FaultServer(seed: 1)
        defer { resetting.stop() }
        let loader = loader()
        _ = try await load("/ok.jpg", with: loader)
        // A label longer than 63 bytes fails in the resolver itself, before any DNS query.
        let unknownHost = String(repeating: "a", count: 64) + ".invalid"
        let unreachable = [
            try XCTUnwrap(URL(string: "http://127.0.0.1:\(try NginxServer.freePort())/ok.jpg")),
            try XCTUnwrap(URL(string: "http://\(unknownHost)/ok.jpg")),
            try XCTUnwrap(URL(string: "https://127.0.0.1:\(server.port)/ok.jpg")),
            resetting.url("/reset"),
        ]
        for url in unreachable {
            do {
                let response = try await loader.load(DataRequest(url: url))
                XCTFail("\(url) loaded \(response.data.count) bytes")
            } catch ImgCacheError.network(let failed, let detail) {
                XCTAssertEqual(failed, url.absoluteString, detail)
            }
            let (response, _) = try await load("/ok.jpg", with: loader)
            XCTAssertEqual(response.data, server.image)
            XCTAssertEqual(response.attempts, 1)
        }
        let resets = try await resetting.count("/reset")
        XCTAssertEqual(resets, 3, "the resets were retried")
        let connections = try await server.connections("/ok.jpg")
        XCTAssertEqual(connections.count, unreachable.count + 1)
        XCTAssertEqual(Set(connections).count, 1, "one kept-alive connection throughout: \(connections)")
    }

    /// A server that answered and then went away is refused a connection (libcurl finds its kept
    /// connection closed and connects anew): no kept connection is to blame, so the loader keeps
    /// its connection to the other server.
    func testAServerThatStopsAfterAnsweringCostsTheOthersNoConnection() async throws {
        let stopping = try FaultServer(seed: 1)
        defer { stopping.stop() }
        let loader = loader()
        _ = try await load("/ok.jpg", with: loader)
        _ = try await loader.load(DataRequest(url: stopping.url("/ok.jpg")))
        stopping.stop()
        do {
            _ = try await loader.load(DataRequest(url: stopping.url("/ok.jpg")))
            XCTFail("a stopped server answered")
        } catch ImgCacheError.network(_, let detail) {
            XCTAssertTrue(detail.contains("cannot connect"), detail)
        }
        _ = try await load("/ok.jpg", with: loader)
        let connections = try await server.connections("/ok.jpg")
        XCTAssertEqual(connections.count, 2)
        XCTAssertEqual(Set(connections).count, 1, "the connection to the running server was kept: \(connections)")
    }
}

private extension FaultServer {
    /// Returns once the server has written the late bytes of a /lie-late or /forge-late answer,
    /// so that they are on the kept-alive connection before the next request goes out.
    func waitForLateBytes() async throws {
        let (data, _) = try await URLSession.shared.data(from: url("/_late"))
        let report = String(decoding: data, as: UTF8.self)
        guard report == "sent" else { throw ServerError("the late bytes were not sent within 30 s: \(report)") }
    }
}
