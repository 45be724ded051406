import Foundation
import ImgCache
import XCTest

/// Statuses and retries against the fault server.
final class DataLoaderStatusTests: FaultServerTestCase {
    func testImageLoadsOnFirstAttemptWithDefaultFreshness() async throws {
        let (response, elapsed) = try await load("/ok.jpg", with: loader())
        XCTAssertEqual(response.data, server.image)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertFalse(response.isNotModified)
        XCTAssertEqual(response.contentType, "image/jpeg")
        XCTAssertEqual(response.attempts, 1)
        XCTAssertEqual(response.url, server.url("/ok.jpg"))
        XCTAssertEqual(response.validators, HTTPValidators())
        XCTAssertEqual(response.freshness.expires.timeIntervalSinceNow, 3600, accuracy: 5)
        XCTAssertTrue(response.freshness.isFresh())
        XCTAssertLessThan(elapsed, 2)
    }

    func testTheAcceptHeaderNamesEveryFormatReadAndNothingElseFirst() async throws {
        let (response, _) = try await load("/headers", with: loader())
        let lines = String(decoding: response.data, as: UTF8.self).split(separator: "\n")
        XCTAssertTrue(
            lines.contains("Accept: image/jpeg, image/png, image/gif, image/webp, image/heic, image/avif, */*;q=0.1"),
            lines.joined(separator: "\n"))
    }

    func test404FailsWithItsStatusAfterOneAttempt() async throws {
        let (error, elapsed) = await failure("/404", with: loader())
        XCTAssertEqual(error, .httpStatus(code: 404, url: server.url("/404").absoluteString))
        let count = try await server.count("/404")
        XCTAssertEqual(count, 1)
        XCTAssertLessThan(elapsed, 2)
    }

    func test500FailsAfterEveryConfiguredAttempt() async throws {
        let (error, elapsed) = await failure("/500", with: loader())
        XCTAssertEqual(error, .httpStatus(code: 500, url: server.url("/500").absoluteString))
        let count = try await server.count("/500")
        XCTAssertEqual(count, 3)
        XCTAssertLessThan(elapsed, 3)
    }

    func testFlakyServerSucceedsOnTheThirdAttempt() async throws {
        let (response, elapsed) = try await load("/flaky", with: loader())
        XCTAssertEqual(response.data, server.image)
        XCTAssertEqual(response.attempts, 3)
        let count = try await server.count("/flaky")
        XCTAssertEqual(count, 3)
        XCTAssertLessThan(elapsed, 3)
    }

    func test429WaitsTheRetryAfterSecondsThenSucceeds() async throws {
        let (response, elapsed) = try await load("/429?after=1", with: loader())
        XCTAssertEqual(response.data, server.image)
        XCTAssertEqual(response.attempts, 2)
        XCTAssertGreaterThanOrEqual(elapsed, 1)
        XCTAssertLessThan(elapsed, 3)
    }

    func test429WaitsUntilTheRetryAfterDate() async throws {
        let delays = DelayRecorder()
        let loader = DataLoader(configuration: Self.configuration, sleep: delays.sleep)
        let (response, elapsed) = try await load("/429?after=3&form=date", with: loader)
        XCTAssertEqual(response.attempts, 2)
        // An HTTP-date has whole seconds: three seconds ahead is two to three seconds away.
        XCTAssertEqual(delays.seconds.count, 1)
        XCTAssertEqual(delays.seconds.first ?? 0, 2.5, accuracy: 0.6)
        XCTAssertLessThan(elapsed, 2)
    }

    func test429AskingToWaitOverTheCapIsNotRetried() async throws {
        let (error, elapsed) = await failure("/429?after=120", with: loader())
        XCTAssertEqual(error, .httpStatus(code: 429, url: server.url("/429?after=120").absoluteString))
        let count = try await server.count("/429")
        XCTAssertEqual(count, 1)
        XCTAssertLessThan(elapsed, 2)
    }

    func testBackOffGrowsBetweenAttempts() async throws {
        let delays = DelayRecorder()
        var configuration = Self.configuration
        configuration.retryPolicy = RetryPolicy(maxAttempts: 4, baseDelay: 1, multiplier: 2, maxDelay: 3)
        let loader = DataLoader(configuration: configuration, sleep: delays.sleep)
        let (error, elapsed) = await failure("/500", with: loader)
        XCTAssertEqual(error, .httpStatus(code: 500, url: server.url("/500").absoluteString))
        // Full jitter: each wait is a share of 1, 2, then 3 (capped) seconds.
        XCTAssertEqual(delays.seconds.count, 3)
        for (delay, ceiling) in zip(delays.seconds, [1.0, 2, 3]) {
            XCTAssertGreaterThanOrEqual(delay, 0)
            XCTAssertLessThan(delay, ceiling)
        }
        XCTAssertLessThan(elapsed, 2)
    }

    func testRetryThatCouldNotStartBeforeTheOverallDeadlineIsNotMade() async throws {
        // Retry-After: 3 is under the cap, but past the 2 s the whole load may take.
        let (error, elapsed) = await failure("/429?after=3", with: loader { $0.overallTimeout = 2 })
        XCTAssertEqual(error, .httpStatus(code: 429, url: server.url("/429?after=3").absoluteString))
        let count = try await server.count("/429")
        XCTAssertEqual(count, 1)
        XCTAssertLessThan(elapsed, 1)
    }

    func testRefusedConnectionIsRetriedThenFailsWithNetwork() async throws {
        let port = server.port
        server.stop()
        let url = URL(string: "http://127.0.0.1:\(port)/ok.jpg")!
        let start = Date()
        do {
            _ = try await loader().load(DataRequest(url: url))
            XCTFail("loaded from a closed port")
        } catch ImgCacheError.network(let failedURL, let detail) {
            XCTAssertEqual(failedURL, url.absoluteString)
            XCTAssertTrue(detail.contains("connect"), detail)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }
}

/// A `sleep` for `DataLoader` that records the back-off instead of waiting.
final class DelayRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [TimeInterval] = []

    var seconds: [TimeInterval] { lock.withLock { recorded } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] duration in
            let (whole, fraction) = duration.components
            lock.withLock { recorded.append(TimeInterval(whole) + TimeInterval(fraction) / 1e18) }
        }
    }
}
