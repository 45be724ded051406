import Foundation
import ImgCache
import XCTest

/// Validators and conditional GETs against Debian's nginx serving real images. nginx must be
/// installed: these tests fail, not skip, without it.
final class NginxRevalidationTests: XCTestCase {
    var nginx: NginxServer!
    let loader = DataLoader()

    override func setUp() async throws {
        nginx = try NginxServer()
    }

    override func tearDown() async throws {
        nginx?.stop()
        nginx = nil
    }

    private func publish(_ data: Data, as name: String, modified: Date) throws {
        let file = nginx.root.appendingPathComponent(name)
        try data.write(to: file)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
    }

    func testImageComesWithETagAndLastModified() async throws {
        let image = try TestImage.jpeg()
        try publish(image, as: "photo.jpg", modified: Date(timeIntervalSince1970: 1_700_000_000))
        let response = try await loader.load(DataRequest(url: nginx.url("/photo.jpg")))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.data, image)
        XCTAssertEqual(response.contentType, "image/jpeg")
        XCTAssertEqual(response.validators.lastModified, "Tue, 14 Nov 2023 22:13:20 GMT")
        // nginx's ETag is "<mtime in hex>-<size in hex>".
        XCTAssertEqual(response.validators.etag, "\"6553f100-\(String(image.count, radix: 16))\"")
        // nginx sends no freshness headers: the default TTL applies.
        XCTAssertEqual(response.freshness.expires.timeIntervalSinceNow, 3600, accuracy: 5)
    }

    func testStoredValidatorsAreAnsweredWith304() async throws {
        try publish(try TestImage.jpeg(), as: "photo.jpg", modified: Date(timeIntervalSince1970: 1_700_000_000))
        let first = try await loader.load(DataRequest(url: nginx.url("/photo.jpg")))
        let start = Date()
        let second = try await loader.load(DataRequest(url: nginx.url("/photo.jpg"), validators: first.validators))
        XCTAssertTrue(second.isNotModified)
        XCTAssertEqual(second.data, Data())
        XCTAssertEqual(second.validators, first.validators)
        XCTAssertEqual(second.freshness.expires.timeIntervalSinceNow, 3600, accuracy: 5)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }

    func testLastModifiedAloneIsAnsweredWith304() async throws {
        try publish(try TestImage.jpeg(), as: "photo.jpg", modified: Date(timeIntervalSince1970: 1_700_000_000))
        let first = try await loader.load(DataRequest(url: nginx.url("/photo.jpg")))
        let stored = HTTPValidators(lastModified: first.validators.lastModified)
        let second = try await loader.load(DataRequest(url: nginx.url("/photo.jpg"), validators: stored))
        XCTAssertTrue(second.isNotModified)
        XCTAssertEqual(second.data, Data())
    }

    func testChangedFileIsSentAgainWithNewValidators() async throws {
        try publish(try TestImage.jpeg(), as: "photo.jpg", modified: Date(timeIntervalSince1970: 1_700_000_000))
        let first = try await loader.load(DataRequest(url: nginx.url("/photo.jpg")))
        let changed = try TestImage.jpeg(seed: 200)
        try publish(changed, as: "photo.jpg", modified: Date(timeIntervalSince1970: 1_700_000_100))
        let second = try await loader.load(DataRequest(url: nginx.url("/photo.jpg"), validators: first.validators))
        XCTAssertEqual(second.statusCode, 200)
        XCTAssertEqual(second.data, changed)
        XCTAssertNotEqual(second.validators.etag, first.validators.etag)
        XCTAssertEqual(second.validators.lastModified, "Tue, 14 Nov 2023 22:15:00 GMT")
    }

    func testAccessLogShowsOnePlainAndOneConditionalRequest() async throws {
        let image = try TestImage.jpeg()
        try publish(image, as: "photo.jpg", modified: Date(timeIntervalSince1970: 1_700_000_000))
        let first = try await loader.load(DataRequest(url: nginx.url("/photo.jpg")))
        _ = try await loader.load(DataRequest(url: nginx.url("/photo.jpg"), validators: first.validators))
        await assertThrowsStatus(404, for: "/missing.jpg")
        let log = try nginx.accessLog(count: 3)
        XCTAssertEqual(log.map(\.path), ["/photo.jpg", "/photo.jpg", "/missing.jpg"], "one request each: nothing retried")
        XCTAssertEqual(log.map(\.method), ["GET", "GET", "GET"])
        XCTAssertEqual(log.map(\.status), [200, 304, 404])
        XCTAssertEqual(log.map(\.bodyBytes).prefix(2), [image.count, 0])
        XCTAssertEqual(log.map(\.ifNoneMatch), [nil, first.validators.etag, nil])
        XCTAssertEqual(log.map(\.ifModifiedSince), [nil, first.validators.lastModified, nil])
    }

    func testRequestsShareAConnectionUnlessReuseIsOff() async throws {
        try publish(try TestImage.jpeg(), as: "photo.jpg", modified: Date(timeIntervalSince1970: 1_700_000_000))
        for _ in 0..<2 { _ = try await loader.load(DataRequest(url: nginx.url("/photo.jpg"))) }
        var configuration = DataLoader.Configuration()
        configuration.reusesConnections = false
        let separate = DataLoader(configuration: configuration)
        for _ in 0..<2 { _ = try await separate.load(DataRequest(url: nginx.url("/photo.jpg"))) }
        let log = try nginx.accessLog(count: 4)
        XCTAssertEqual(log.map(\.requestOnConnection), [1, 2, 1, 1])
        XCTAssertEqual(Set(log.map(\.connection)).count, 3)
    }

    private func assertThrowsStatus(_ code: Int, for path: String, line: UInt = #line) async {
        do {
            _ = try await loader.load(DataRequest(url: nginx.url(path)))
            XCTFail("\(path) loaded", line: line)
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .httpStatus(code: code, url: nginx.url(path).absoluteString), line: line)
        }
    }
}
