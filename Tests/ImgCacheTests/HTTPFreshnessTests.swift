import Foundation
import XCTest
@testable import ImgCache

final class HTTPFreshnessTests: XCTestCase {
    let received = Date(timeIntervalSince1970: 1_780_272_000)
    let hour: TimeInterval = 3600

    private func freshness(_ headers: [String: String]) -> HTTPFreshness {
        HTTPFreshness(headers: headers, receivedAt: received, defaultTTL: hour)
    }

    private func lifetime(_ headers: [String: String]) -> TimeInterval {
        freshness(headers).expires.timeIntervalSince(received)
    }

    func testWithoutFreshnessHeadersTheDefaultTTLApplies() {
        XCTAssertEqual(freshness([:]), HTTPFreshness(expires: received + hour))
        XCTAssertEqual(lifetime(["last-modified": "Sun, 06 Nov 1994 08:49:37 GMT"]), hour, "no heuristic freshness")
        XCTAssertEqual(lifetime(["cache-control": "public"]), hour)
    }

    func testMaxAgeLessAge() {
        XCTAssertEqual(lifetime(["cache-control": "max-age=600"]), 600)
        XCTAssertEqual(lifetime(["cache-control": "max-age=600", "age": "100"]), 500)
        XCTAssertEqual(lifetime(["cache-control": "max-age=600", "age": "900"]), 0, "older than its max-age: stale")
        XCTAssertEqual(lifetime(["cache-control": "max-age=600", "age": "ten"]), 600, "an invalid Age is ignored")
        XCTAssertEqual(lifetime(["cache-control": "max-age=0"]), 0)
    }

    func testMaxAgeIsReadLeniently() {
        XCTAssertEqual(lifetime(["cache-control": "MAX-AGE=60"]), 60)
        XCTAssertEqual(lifetime(["cache-control": "max-age=\"60\""]), 60)
        XCTAssertEqual(lifetime(["cache-control": " public ,  max-age = 60 , immutable"]), 60)
        XCTAssertEqual(lifetime(["cache-control": "no-cache=\"set-cookie, x-a\", max-age=60"]), 60, "a comma inside quotes splits nothing")
        XCTAssertEqual(lifetime(["cache-control": "max-age=99999999999999"]), 2_147_483_648, "capped at 2^31 seconds")
    }

    func testInvalidMaxAgeIsStale() {
        for header in ["max-age=abc", "max-age=", "max-age", "max-age=-5", "max-age=1.5", "max-age=60, max-age=60"] {
            XCTAssertEqual(lifetime(["cache-control": header]), 0, header)
        }
    }

    func testSharedCacheDirectivesChangeNothing() {
        XCTAssertEqual(lifetime(["cache-control": "s-maxage=10"]), hour)
        XCTAssertEqual(lifetime(["cache-control": "private, s-maxage=10, max-age=60"]), 60)
    }

    func testNoStoreIsNeverFreshNorStored() {
        let value = freshness(["cache-control": "no-store, max-age=600"])
        XCTAssertEqual(value, HTTPFreshness(expires: received, isNoStore: true))
        XCTAssertFalse(value.isFresh(at: received - 1))
    }

    func testNoCacheIsStoredButRevalidatedBeforeEveryUse() {
        let value = freshness(["cache-control": "No-Cache, max-age=600"])
        XCTAssertEqual(value, HTTPFreshness(expires: received, requiresRevalidation: true))
        XCTAssertFalse(value.isFresh(at: received - 1))
        XCTAssertEqual(freshness(["cache-control": "no-cache, no-store"]), HTTPFreshness(expires: received, isNoStore: true))
    }

    func testQualifiedNoCacheOnlyConcernsHeaderFields() {
        let value = freshness(["cache-control": "no-cache=\"Set-Cookie\", max-age=60"])
        XCTAssertFalse(value.requiresRevalidation)
        XCTAssertEqual(value.expires, received + 60)
    }

    func testExpiresCountsFromTheServersDate() {
        // The server's clock is an hour slow; Expires is two minutes after its Date.
        let headers = ["date": "Sun, 31 May 2026 23:00:00 GMT", "expires": "Sun, 31 May 2026 23:02:00 GMT"]
        XCTAssertEqual(lifetime(headers), 120)
        XCTAssertEqual(lifetime(headers.merging(["age": "20"]) { $1 }), 100)
        XCTAssertEqual(lifetime(["date": "Sunday, 31-May-26 23:00:00 GMT", "expires": "Sun May 31 23:01:00 2026"]), 60)
    }

    func testExpiresWithoutAValidDateIsAbsolute() {
        XCTAssertEqual(lifetime(["expires": "Mon, 01 Jun 2026 00:10:00 GMT"]), 600)
        XCTAssertEqual(lifetime(["expires": "Mon, 01 Jun 2026 00:10:00 GMT", "date": "yesterday"]), 600)
    }

    func testInvalidOrPastExpiresIsAlreadyExpired() {
        XCTAssertEqual(lifetime(["expires": "0"]), 0)
        XCTAssertEqual(lifetime(["expires": "-1"]), 0)
        XCTAssertEqual(lifetime(["expires": "Thu, 01 Jan 1970 00:00:00 GMT"]), 0)
    }

    func testMaxAgeWinsOverExpires() {
        XCTAssertEqual(lifetime(["cache-control": "max-age=60", "expires": "Mon, 01 Jun 2026 00:10:00 GMT"]), 60)
        XCTAssertEqual(lifetime(["cache-control": "max-age=60", "expires": "0"]), 60)
    }

    func testIsFreshUntilTheExpiry() {
        let value = HTTPFreshness(expires: received + 60)
        XCTAssertTrue(value.isFresh(at: received))
        XCTAssertTrue(value.isFresh(at: received + 59.9))
        XCTAssertFalse(value.isFresh(at: received + 60))
    }
}

final class HTTPValidatorsTests: XCTestCase {
    func testValidatorsComeFromTheHeadersAsSent() {
        let validators = HTTPValidators(headers: ["etag": "W/\"abc\"", "last-modified": "Sun, 06 Nov 1994 08:49:37 GMT"])
        XCTAssertEqual(validators.etag, "W/\"abc\"")
        XCTAssertEqual(validators.lastModified, "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertFalse(validators.isEmpty)
        XCTAssertTrue(HTTPValidators(headers: ["content-type": "image/png"]).isEmpty)
    }

    func testA304KeepsTheStoredValidatorsItDoesNotRepeat() {
        let stored = HTTPValidators(etag: "\"1\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPValidators().filled(from: stored), stored)
        XCTAssertEqual(
            HTTPValidators(etag: "\"2\"").filled(from: stored),
            HTTPValidators(etag: "\"2\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT"))
    }
}
