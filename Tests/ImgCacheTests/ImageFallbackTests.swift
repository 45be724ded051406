import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// `ImagePipeline.prepare(_:fallback:)`: which failures a fallback stands in for, that it keeps the
/// request's options, that its variant is rendered once per option set under its own key, and that
/// the source is asked for again afterwards.
final class ImageFallbackTests: XCTestCase {
    private var root: URL!
    private let fallbackURL = URL(string: "https://example.test/fallback.png")!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-fallback-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func url(_ name: String) -> URL { URL(string: "https://example.test/\(name)")! }

    func testFallbacksStandInForTheSourcesOwnFailuresOnly() {
        let covered: [ImgCacheError] = [
            .httpStatus(code: 404, url: "u"), .httpStatus(code: 503, url: "u"), .network(url: "u", detail: "reset"),
            .timeout(url: "u", seconds: 30), .refusedURL(url: "u", reason: "private"), .tooLarge(bytes: 9, limit: 8),
            .unsupportedFormat(detail: "text"), .corruptImage(format: .jpeg, detail: "scan"),
            .dimensionsOverLimit(width: 9, height: 9, limit: 8),
        ]
        let notCovered: [any Error] = [
            ImgCacheError.invalidArgument("q"), ImgCacheError.invalidURL("u"), ImgCacheError.outputOverByteLimit(format: .png, bytes: 9, limit: 8),
            ImgCacheError.notCached(key: "k"), ImgCacheError.shutDown, ImgCacheError.io(path: "p", detail: "full"),
            ImgCacheError.cacheIndex(path: "p", detail: "locked"), ImgCacheError.encodingFailed(format: .png, detail: "d"),
            ImgCacheError.unknownDevice(name: "n", suggestions: []), CancellationError(),
        ]
        for error in covered { XCTAssertTrue(ImageFallback.covers(error), "\(error)") }
        for error in notCovered { XCTAssertFalse(ImageFallback.covers(error), "\(error)") }
    }

    func testTheFallbackRequestKeepsTheOptionsAndDropsTheSourcesKeyAndHeaders() {
        var request = ImageRequest(
            url: url("a.jpg"), target: .pixels(PixelSize(width: 40, height: 30)), contentMode: .crop, outputFormat: .png)
        request.cacheKey = "a.jpg cachebuster:1"
        request.headers = ["Authorization": "Bearer x"]
        request.keyHeaders = ["Authorization"]
        request.cachePolicy = .reload
        var expected = ImageRequest(url: fallbackURL, target: .pixels(PixelSize(width: 40, height: 30)), contentMode: .crop, outputFormat: .png)
        expected.cachePolicy = .useCache
        XCTAssertEqual(ImageFallback(url: fallbackURL).request(for: request), expected)
    }

    func testAFailingSourceGetsTheFallbackRenderedOncePerOptionSetAndIsAskedForAgain() async throws {
        let loader = CountingLoader()
        loader.serve(fallbackURL, .init(data: try PNGEncoder.encode(TestImages.scene(width: 200, height: 100))))
        loader.serve(url("text.jpg"), .init(data: Data("not an image".utf8)))
        let pipeline = try loader.pipeline(root: root)
        let fallback = ImageFallback(url: fallbackURL)
        let small = ImageRequest(url: url("missing.jpg"), target: .pixels(PixelSize(width: 50, height: 50)), outputFormat: .png)

        let first = try await pipeline.prepare(small, fallback: fallback)
        XCTAssertEqual(first.sourceFailure, .httpStatus(code: 404, url: url("missing.jpg").absoluteString))
        XCTAssertTrue(first.isFallback)
        XCTAssertEqual(first.summary.pixelSize, PixelSize(width: 50, height: 25))
        XCTAssertEqual(first.summary.format, .png)
        XCTAssertEqual(first.summary.cacheOutcome, .network)
        // Another failing source with the same options: the fallback's variant as it is.
        var notImage = small
        notImage.url = url("text.jpg")
        let second = try await pipeline.prepare(notImage, fallback: fallback)
        XCTAssertEqual(second.sourceFailure?.isUnsupportedFormat, true)
        XCTAssertEqual(second.summary.variantKey, first.summary.variantKey)
        XCTAssertNotEqual(second.summary.cacheOutcome, .network)
        XCTAssertEqual(loader.requests.filter { $0.url == fallbackURL }.count, 1)
        // Other options: another variant from the same original.
        var wide = small
        wide.target = .pixels(PixelSize(width: 100, height: 100))
        let third = try await pipeline.prepare(wide, fallback: fallback)
        XCTAssertEqual(third.summary.pixelSize, PixelSize(width: 100, height: 50))
        XCTAssertNotEqual(third.summary.variantKey, first.summary.variantKey)
        XCTAssertEqual(loader.requests.filter { $0.url == fallbackURL }.count, 1)

        // The source comes back: its own image, not the fallback stored in its place.
        loader.serve(url("missing.jpg"), .init(data: try PNGEncoder.encode(TestImages.scene(width: 80, height: 80))))
        let recovered = try await pipeline.prepare(small, fallback: fallback)
        XCTAssertNil(recovered.sourceFailure)
        XCTAssertEqual(recovered.summary.pixelSize, PixelSize(width: 50, height: 50))
        XCTAssertNotEqual(recovered.summary.variantKey, first.summary.variantKey)
        XCTAssertEqual(loader.requests.filter { $0.url == url("missing.jpg") }.count, 3, "each request asks the source")
        await pipeline.shutdown()
    }

    func testBadOptionsAndAFailingFallbackThrow() async throws {
        let loader = CountingLoader()
        let pipeline = try loader.pipeline(root: root)
        let fallback = ImageFallback(url: fallbackURL)
        // Not the source's failure: no fallback is fetched.
        let badQuality = ImageRequest(url: url("missing.jpg"), outputFormat: .jpeg(quality: 0))
        do {
            _ = try await pipeline.prepare(badQuality, fallback: fallback)
            XCTFail("quality 0 was taken")
        } catch {
            guard case .invalidArgument? = error as? ImgCacheError else { return XCTFail("\(error)") }
        }
        XCTAssertFalse(loader.requests.contains { $0.url == fallbackURL })
        // The fallback fails too: its own error.
        do {
            _ = try await pipeline.prepare(ImageRequest(url: url("missing.jpg")), fallback: fallback)
            XCTFail("a missing fallback was served")
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .httpStatus(code: 404, url: fallbackURL.absoluteString))
        }
        await pipeline.shutdown()
    }
}

private extension ImgCacheError {
    var isUnsupportedFormat: Bool {
        if case .unsupportedFormat = self { return true }
        return false
    }
}
