import Foundation
import ImgCache
import XCTest

/// Validators, revalidation and freshness headers, against the fault server.
final class DataLoaderFreshnessTests: FaultServerTestCase {
    func testStoredETagIsRevalidatedWith304() async throws {
        let loader = loader()
        let (first, _) = try await load("/etag", with: loader)
        XCTAssertEqual(first.statusCode, 200)
        XCTAssertEqual(first.validators, HTTPValidators(etag: "\"v1\""))
        let (second, elapsed) = try await load("/etag", with: loader, validators: first.validators)
        XCTAssertTrue(second.isNotModified)
        XCTAssertEqual(second.statusCode, 304)
        XCTAssertEqual(second.data, Data())
        XCTAssertEqual(second.validators, HTTPValidators(etag: "\"v1\""))
        XCTAssertEqual(second.freshness.expires.timeIntervalSinceNow, 60, accuracy: 5)
        XCTAssertLessThan(elapsed, 2)
    }

    func test304ToAnUnconditionalRequestIsAStatusError() async throws {
        // Nothing was stored to keep, so a 304 answers nothing.
        let (error, elapsed) = await failure("/notmodified", with: loader())
        XCTAssertEqual(error, .httpStatus(code: 304, url: server.url("/notmodified").absoluteString))
        let count = try await server.count("/notmodified")
        XCTAssertEqual(count, 1)
        XCTAssertLessThan(elapsed, 2)
    }

    func testNoCacheIsStoredButMustBeRevalidated() async throws {
        let (response, _) = try await load("/nocache", with: loader())
        XCTAssertTrue(response.freshness.requiresRevalidation)
        XCTAssertFalse(response.freshness.isNoStore)
        XCTAssertFalse(response.freshness.isFresh())
        XCTAssertEqual(response.freshness.expires.timeIntervalSinceNow, 0, accuracy: 2)
    }

    func testNoStoreIsFlagged() async throws {
        let (response, _) = try await load("/nostore", with: loader())
        XCTAssertTrue(response.freshness.isNoStore)
        XCTAssertFalse(response.freshness.isFresh())
    }

    func testMaxAgeLessAge() async throws {
        let (response, _) = try await load("/maxage/120?age=20", with: loader())
        XCTAssertEqual(response.freshness.expires.timeIntervalSinceNow, 100, accuracy: 3)
        XCTAssertTrue(response.freshness.isFresh())
    }

    func testExpiresCountsFromTheServersDate() async throws {
        // The server's clock is an hour slow; Expires is two minutes after its Date.
        let (response, _) = try await load("/expires", with: loader())
        XCTAssertEqual(response.freshness.expires.timeIntervalSinceNow, 120, accuracy: 3)
    }
}
