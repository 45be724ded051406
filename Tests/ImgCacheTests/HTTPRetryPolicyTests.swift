import Foundation
import XCTest
@testable import ImgCache

final class HTTPRetryPolicyTests: XCTestCase {
    func testDefaults() {
        let policy = RetryPolicy()
        XCTAssertEqual(policy.maxAttempts, 3)
        XCTAssertEqual(policy.baseDelay, 0.5)
        XCTAssertEqual(policy.multiplier, 2)
        XCTAssertEqual(policy.maxDelay, 8)
        XCTAssertEqual(policy.maxRetryAfter, 30)
        XCTAssertEqual(RetryPolicy.none.maxAttempts, 1)
    }

    func testBackOffDoublesUpToTheCapAndJitterTakesAShareOfIt() {
        let policy = RetryPolicy()
        XCTAssertEqual(policy.delay(beforeRetry: 1, jitter: 1), 0.5)
        XCTAssertEqual(policy.delay(beforeRetry: 2, jitter: 1), 1)
        XCTAssertEqual(policy.delay(beforeRetry: 4, jitter: 1), 4)
        XCTAssertEqual(policy.delay(beforeRetry: 5, jitter: 1), 8)
        XCTAssertEqual(policy.delay(beforeRetry: 9, jitter: 1), 8)
        XCTAssertEqual(policy.delay(beforeRetry: 3, jitter: 0.25), 0.5)
        XCTAssertEqual(policy.delay(beforeRetry: 3, jitter: 0), 0)
    }

    func testRetryAfterIsAFloorAndOverTheCapIsNotWaitedFor() {
        let policy = RetryPolicy()
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: 5, jitter: 0.5), 5)
        XCTAssertEqual(policy.delay(beforeRetry: 5, retryAfter: 1, jitter: 1), 8)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: 30, jitter: 0), 30)
        XCTAssertNil(policy.delay(beforeRetry: 1, retryAfter: 31, jitter: 0))
    }

    func testRetryAfterSecondsOrHTTPDate() {
        let now = Date(timeIntervalSince1970: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(RetryPolicy.retryAfter("120", served: nil, now: now), 120)
        XCTAssertEqual(RetryPolicy.retryAfter(" 0 ", served: nil, now: now), 0)
        XCTAssertEqual(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:50:37 GMT", served: nil, now: now), 60)
        // Measured from the server's Date, so a skewed clock changes nothing.
        XCTAssertEqual(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:50:37 GMT", served: now - 3600, now: now), 3660)
        XCTAssertEqual(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:40:37 GMT", served: nil, now: now), 0)
        for invalid in ["", "soon", "-5", "1.5", "Sun, 06 Nov 1994"] {
            XCTAssertNil(RetryPolicy.retryAfter(invalid, served: nil, now: now), invalid)
        }
    }
}
