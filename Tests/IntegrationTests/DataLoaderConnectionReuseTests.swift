import Foundation
import ImgCache
import XCTest

/// Kept-alive connections, and what a response that lies about its end can do to the next one,
/// by the fault server's record of the connection each request came over.
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
        // The junk is on the idle connection by now.
        try await Task.sleep(for: .milliseconds(300))
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
        try await Task.sleep(for: .milliseconds(300))
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
        // The forged response is on the idle connection to the first server by now.
        try await Task.sleep(for: .milliseconds(300))
        for _ in 0..<2 {
            let response = try await loader.load(DataRequest(url: other.url("/ok.jpg")))
            XCTAssertEqual(response.data, other.image)
            XCTAssertEqual(response.attempts, 1)
        }
    }
}
