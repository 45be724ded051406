import Foundation
import ImgCache
import XCTest

/// Redirect limits and schemes, against the fault server.
final class DataLoaderRedirectTests: FaultServerTestCase {
    func testFiveRedirectsAreFollowed() async throws {
        let (response, elapsed) = try await load("/redirects/5", with: loader())
        XCTAssertEqual(response.data, server.image)
        XCTAssertEqual(response.url, server.url("/redirects/0"))
        XCTAssertEqual(response.attempts, 1)
        XCTAssertLessThan(elapsed, 2)
    }

    func testSixRedirectsFail() async throws {
        let (error, elapsed) = await failure("/redirects/6", with: loader())
        XCTAssertEqual(error, .network(url: server.url("/redirects/6").absoluteString, detail: "too many redirects (more than 5)"))
        let last = try await server.count("/redirects/0")
        XCTAssertEqual(last, 0, "the sixth redirect is never followed")
        XCTAssertLessThan(elapsed, 2)
    }

    func testRedirectLoopFailsWithoutRetrying() async throws {
        let (error, elapsed) = await failure("/redirect-loop", with: loader())
        guard case .network(_, let detail)? = error else {
            return XCTFail("expected .network, got \(String(describing: error))")
        }
        XCTAssertTrue(detail.contains("redirects"), detail)
        let count = try await server.count("/redirect-loop")
        XCTAssertEqual(count, 6, "the first request and the five redirects followed, once")
        XCTAssertLessThan(elapsed, 2)
    }

    func testRedirectToAnotherSchemeIsRefused() async throws {
        for target in ["ftp://127.0.0.1/ok.jpg", "file:///etc/passwd"] {
            let path = "/redirect-to?url=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let (error, elapsed) = await failure(path, with: loader { $0.allowsFileURLs = true })
            guard case .network(_, let detail)? = error else {
                XCTFail("expected .network for \(target), got \(String(describing: error))")
                continue
            }
            XCTAssertTrue(detail.contains("refused a redirect to \(target)"), detail)
            XCTAssertLessThan(elapsed, 2)
        }
        let count = try await server.count("/redirect-to")
        XCTAssertEqual(count, 2, "refusals are not retried")
    }

    func testCancellingAtAnyMomentOfARedirectChainIsSafe() async throws {
        // FoundationNetworking traps when a task waiting for a redirect decision is cancelled:
        // cancel loads at random moments of a five-hop chain and expect a clean end each time.
        let loader = loader()
        let url = server.url("/redirects/5")
        var outcomes: [String: Int] = [:]
        for round in 0..<40 {
            let task = Task { try await loader.load(DataRequest(url: url)) }
            try await Task.sleep(for: .microseconds(250 * (round % 20)))
            task.cancel()
            do {
                let response = try await task.value
                XCTAssertEqual(response.data, server.image)
                outcomes["loaded", default: 0] += 1
            } catch is CancellationError {
                outcomes["cancelled", default: 0] += 1
            }
        }
        XCTAssertEqual(outcomes.values.reduce(0, +), 40)
        XCTAssertGreaterThan(outcomes["cancelled"] ?? 0, 0, "\(outcomes)")
    }
}
