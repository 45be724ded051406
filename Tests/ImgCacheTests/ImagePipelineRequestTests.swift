import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// What a request carries beyond its target: headers, cache keys that survive signed URLs, cache
/// and storage policies, the automatic format's quality, the allowed hosts, and extra tiers.
final class ImagePipelineRequestTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-requests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func pipeline(
        _ loader: CountingLoader, folder: String = "cache", keyPolicy: CacheKeyPolicy = CacheKeyPolicy(),
        tiers: [any DataCaching] = [], allowedHosts: [String]? = nil
    ) throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: root.appendingPathComponent(folder))
        disk.syncWrites = false
        var configuration = ImagePipeline.Configuration(dataLoader: loader, diskCache: disk, keyPolicy: keyPolicy, tiers: tiers)
        configuration.loading.allowedHosts = allowedHosts
        return try ImagePipeline(configuration: configuration)
    }

    private let photo = try! PNGEncoder.encode(TestImages.scene(width: 240, height: 160))
    private let small = ImageTarget.pixels(PixelSize(width: 60, height: 60))

    private func presigned(_ index: Int) -> URL {
        URL(string: "https://bucket.example.test/photos/cat.png?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            + "&X-Amz-Date=20261201T1200\(String(format: "%02d", index))Z&X-Amz-Signature=\(String(repeating: "ab", count: 16))\(index)"
            + "&versionId=7")!
    }

    func testPresignedURLsOfOneObjectShareOneOriginalAndOneVariantPerTarget() async throws {
        let loader = CountingLoader()
        for index in 0..<10 { loader.serve(presigned(index), .init(data: photo)) }
        let pipeline = try pipeline(loader, keyPolicy: CacheKeyPolicy(ignoredQueryItems: ["x-amz-*"]))
        let targets = [small, .pixels(PixelSize(width: 30, height: 30))]
        for index in 0..<10 {
            for (number, target) in targets.enumerated() {
                let summary = try await pipeline.prepare(ImageRequest(url: presigned(index), target: target))
                XCTAssertEqual(summary.cacheOutcome, index == 0 && number == 0 ? .network : .disk, "URL \(index)")
            }
        }
        XCTAssertEqual(loader.loads, 1)
        XCTAssertEqual(loader.requests.first?.url, presigned(0), "the download uses the full URL")
        let entries = try pipeline.diskCache.entries()
        XCTAssertEqual(entries.filter { $0.kind == .original }.map(\.key), ["https://bucket.example.test/photos/cat.png?versionId=7"])
        XCTAssertEqual(entries.filter { $0.kind != .original }.count, targets.count)
    }

    func testTheKeyPolicyDropsItemsByNameOrPrefixCaseInsensitivelyAndKeepsTheRestAsWritten() {
        let policy = CacheKeyPolicy(ignoredQueryItems: ["Signature", "X-Amz-*", "token"])
        let url = URL(string: "https://cdn.example.test/a%20b.jpg?w=200&Signature=abc&x-amz-date=1&TOKEN=z&q=%2Fx#frag")!
        XCTAssertEqual(policy.key(for: url), "https://cdn.example.test/a%20b.jpg?w=200&q=%2Fx")
        XCTAssertEqual(policy.key(for: URL(string: "https://cdn.example.test/a.jpg?Expires=1&Signature=s")!),
                       "https://cdn.example.test/a.jpg?Expires=1")
        XCTAssertEqual(policy.key(for: URL(string: "https://cdn.example.test/a.jpg?Signature=s")!), "https://cdn.example.test/a.jpg")
        let custom = CacheKeyPolicy(transform: { url in url.lastPathComponent + "#v" })
        XCTAssertEqual(custom.key(for: url), "a b.jpg%23v", "no key reaches the variants' key space")
        XCTAssertThrowsError(try CacheKeyPolicy(ignoredQueryItems: ["*"]).validate())
        XCTAssertThrowsError(try CacheKeyPolicy(ignoredQueryItems: ["a*b"]).validate())
    }

    func testACallersCacheKeyNamesTheOriginalWhateverTheURL() async throws {
        let loader = CountingLoader()
        let first = URL(string: "https://a.example.test/1.png?sig=1")!, second = URL(string: "https://b.example.test/2.png")!
        loader.serve(first, .init(data: photo))
        loader.serve(second, .init(data: photo))
        let pipeline = try pipeline(loader)
        let one = try await pipeline.prepare(ImageRequest(url: first, target: small, cacheKey: "photo-42"))
        let two = try await pipeline.prepare(ImageRequest(url: second, target: small, cacheKey: "photo-42"))
        XCTAssertEqual([one.cacheOutcome, two.cacheOutcome], [.network, .disk])
        XCTAssertEqual(loader.loads, 1)
        XCTAssertEqual(try pipeline.diskCache.entry(for: "photo-42")?.kind, .original)
    }

    func testHeadersReachTheLoaderAndChangeTheKeyOnlyWhenNamed() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://private.example.test/p.png")!
        loader.serve(source, .init(data: photo))
        let pipeline = try pipeline(loader)
        let bearer = ["Authorization": "Bearer one", "Accept": "image/webp"]
        _ = try await pipeline.prepare(ImageRequest(url: source, target: small, headers: bearer))
        XCTAssertEqual(loader.requests.last?.headers, bearer)
        // Another token, same key: served from the disk.
        let other = try await pipeline.prepare(ImageRequest(url: source, target: small, headers: ["Authorization": "Bearer two"]))
        XCTAssertEqual(other.cacheOutcome, .disk)
        XCTAssertEqual(loader.loads, 1)
        // Named in keyHeaders, the header's value makes an original of its own.
        let png = try await pipeline.prepare(ImageRequest(
            url: source, target: small, headers: ["accept": "image/png"], keyHeaders: ["Accept"]))
        let again = try await pipeline.prepare(ImageRequest(
            url: source, target: small, headers: ["Accept": "image/png"], keyHeaders: ["accept"]))
        XCTAssertEqual([png.cacheOutcome, again.cacheOutcome], [.network, .disk])
        XCTAssertEqual(loader.loads, 2)
        XCTAssertNotNil(try pipeline.diskCache.entry(for: source.absoluteString + " header:accept=image/png"))
        // A header a loader would refuse fails the request before anything is looked up.
        do {
            _ = try await pipeline.prepare(ImageRequest(url: source, target: small, headers: ["X-Bad": "a\r\nInjected: 1"]))
            XCTFail("a CR LF in a header value must be refused")
        } catch let error as ImgCacheError {
            guard case .invalidArgument(let detail) = error else { return XCTFail("\(error)") }
            XCTAssertFalse(detail.contains("Injected"), "the value is never echoed: \(detail)")
        }
        XCTAssertEqual(loader.loads, 2)
    }

    func testReloadRevalidatesAFreshOriginalAndRendersTheVariantAgain() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://example.test/etag.png")!
        loader.serve(source, .init(data: photo, etag: "\"v1\""))
        let pipeline = try pipeline(loader)
        let first = try await pipeline.image(for: ImageRequest(url: source, target: small))
        let file = try XCTUnwrap(first.fileURL)
        try Data("damaged".utf8).write(to: file) // a reload must not trust the stored variant
        let reloaded = try await pipeline.image(for: ImageRequest(url: source, target: small, cachePolicy: .reload))
        XCTAssertEqual(reloaded.cacheOutcome, .revalidated)
        XCTAssertEqual(loader.conditionalLoads, 1)
        XCTAssertEqual(loader.notModified, 1)
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: try XCTUnwrap(reloaded.fileURL).path)).size, PixelSize(width: 60, height: 40))
    }

    func testCacheOnlyFailsWithNotCachedOnAMissAndServesStaleCopiesWithoutTheNetwork() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://example.test/stale.png")!
        loader.serve(source, .init(data: photo, maxAge: 0))
        let pipeline = try pipeline(loader)
        do {
            _ = try await pipeline.image(for: ImageRequest(url: source, target: small, cachePolicy: .cacheOnly))
            XCTFail("nothing is stored yet")
        } catch let error as ImgCacheError {
            XCTAssertEqual(error, .notCached(key: source.absoluteString))
        }
        XCTAssertEqual(loader.loads, 0)
        _ = try await pipeline.prepare(ImageRequest(url: source, target: small))
        // Stale at once (max-age 0): the cache-only request serves the stored variant, and renders
        // a new target from the stored original, without a request.
        let stored = try await pipeline.prepare(ImageRequest(url: source, target: small, cachePolicy: .cacheOnly))
        let rendered = try await pipeline.prepare(ImageRequest(
            url: source, target: .pixels(PixelSize(width: 20, height: 20)), cachePolicy: .cacheOnly))
        XCTAssertEqual([stored.cacheOutcome, rendered.cacheOutcome], [.disk, .disk])
        XCTAssertEqual(rendered.pixelSize, PixelSize(width: 20, height: 13))
        XCTAssertEqual(loader.loads, 1)
    }

    func testStoragePoliciesKeepVariantsOnlyOrNothing() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://example.test/feed.png")!
        loader.serve(source, .init(data: photo))
        let variantsOnly = try pipeline(loader, folder: "variants")
        let summary = try await variantsOnly.prepare(ImageRequest(url: source, target: small, storage: .variantsOnly))
        XCTAssertEqual(try variantsOnly.diskCache.entries().map(\.kind), [.variant(of: source.absoluteString)])
        XCTAssertEqual(try variantsOnly.diskCache.entries().first?.fileURL, summary.fileURL)
        let nothing = try pipeline(loader, folder: "none")
        let response = try await nothing.image(for: ImageRequest(url: source, target: small, storage: .none))
        XCTAssertNil(response.fileURL)
        XCTAssertEqual(try ImageDecoder.inspect(.data(try XCTUnwrap(response.unstoredData))).size, PixelSize(width: 60, height: 40))
        XCTAssertEqual(try nothing.diskCache.entries().count, 0)
        XCTAssertEqual(loader.loads, 2)
    }

    func testTheAutomaticFormatsJPEGQualityIsPartOfTheVariant() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://example.test/photo.png")!
        loader.serve(source, .init(data: try PNGEncoder.encode(TestImages.scene(width: 400, height: 400))))
        let pipeline = try pipeline(loader)
        let target = ImageTarget.pixels(PixelSize(width: 200, height: 200))
        let low = try await pipeline.prepare(ImageRequest(url: source, target: target, quality: 20))
        let high = try await pipeline.prepare(ImageRequest(url: source, target: target, quality: 90))
        let standard = try await pipeline.prepare(ImageRequest(url: source, target: target))
        XCTAssertEqual([low.format, high.format, standard.format], [.jpeg, .jpeg, .jpeg])
        XCTAssertNotEqual(low.fileURL, high.fileURL)
        XCTAssertLessThan(low.byteCount, standard.byteCount)
        XCTAssertLessThan(standard.byteCount, high.byteCount)
        let keys = try pipeline.diskCache.entries().map(\.key).filter(CacheKey.isVariantKey)
        XCTAssertEqual(Set(keys.map { $0.components(separatedBy: ";format=")[1] }), ["auto-q20", "auto-q90", "auto"])
        do {
            _ = try await pipeline.prepare(ImageRequest(url: source, target: target, quality: 101))
            XCTFail("quality 101 must be refused")
        } catch ImgCacheError.invalidArgument {}
    }

    func testWebPAndTheByteCapArePartOfTheVariantAndACapThatCannotBeMetFails() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://example.test/photo.png")!
        let frames = (0..<3).map { ImageFrame(bitmap: TestImages.scene(width: 96, height: 96, seed: UInt64($0 + 1)), delayCentiseconds: 7) }
        let gif = try GIFEncoder.encode(DecodedImage(info: ImageInfo(format: .gif, sourceSize: PixelSize(width: 96, height: 96), loopCount: 0), frames: frames))
        let animation = URL(string: "https://example.test/anim.gif")!
        loader.serve(source, .init(data: try PNGEncoder.encode(TestImages.scene(width: 400, height: 400))))
        loader.serve(animation, .init(data: gif))
        let pipeline = try pipeline(loader)
        let target = ImageTarget.pixels(PixelSize(width: 200, height: 200))
        let webp = try await pipeline.image(for: ImageRequest(url: source, target: target, outputFormat: .webp(quality: 80)))
        let capped = try await pipeline.prepare(
            ImageRequest(url: source, target: target, outputFormat: .webp(quality: 80), maxBytes: webp.summary.byteCount - 1))
        let jpeg = try await pipeline.prepare(ImageRequest(url: source, target: target, maxBytes: 6000))
        let animated = try await pipeline.image(for: ImageRequest(url: animation, target: target, outputFormat: .webpLossless))
        XCTAssertEqual([webp.format, capped.format, jpeg.format, animated.format], [.webp, .webp, .jpeg, .webp])
        XCTAssertEqual(webp.fileURL?.pathExtension, "webp")
        XCTAssertLessThan(capped.byteCount, webp.summary.byteCount)
        XCTAssertLessThanOrEqual(jpeg.byteCount, 6000)
        XCTAssertEqual(animated.summary.frameCount, 3)
        XCTAssertEqual(animated.image.frames.map(\.delayCentiseconds), [7, 7, 7])
        let stored = try ImageDecoder.decode(.data(Data(contentsOf: try XCTUnwrap(animated.fileURL))), options: DecodingOptions(maxFrames: 10))
        XCTAssertEqual(stored.frames.count, 3)
        XCTAssertEqual(stored.info.loopCount, 0)
        let keys = try pipeline.diskCache.entries().map(\.key).filter(CacheKey.isVariantKey)
        XCTAssertEqual(
            Set(keys.map { $0.components(separatedBy: ";format=")[1] }),
            ["webp80", "webp80-max\(webp.summary.byteCount - 1)", "auto-max6000", "webp-lossless"])
        do {
            _ = try await pipeline.prepare(ImageRequest(url: source, target: target, outputFormat: .jpeg(quality: 80), maxBytes: 200))
            XCTFail("200 bytes cannot hold a 200x200 JPEG")
        } catch ImgCacheError.outputOverByteLimit(let format, let bytes, let limit) {
            XCTAssertEqual(format, .jpeg)
            XCTAssertGreaterThan(bytes, 200)
            XCTAssertEqual(limit, 200)
        }
    }

    func testAHostOutsideTheAllowedHostsIsRefusedEvenWhenCached() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://elsewhere.example.test/p.png")!
        loader.serve(source, .init(data: photo))
        _ = try await pipeline(loader).prepare(ImageRequest(url: source, target: small))
        let restricted = try pipeline(loader, allowedHosts: ["images.example.test"])
        do {
            _ = try await restricted.prepare(ImageRequest(url: source, target: small))
            XCTFail("a cached original of a disallowed host must not be served")
        } catch ImgCacheError.refusedURL(let url, _) {
            XCTAssertEqual(url, source.absoluteString)
        }
        XCTAssertEqual(loader.loads, 1)
    }

    func testAnExtraTierSharesOriginalsAndVariantsBetweenPipelines() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://example.test/shared.png")!
        loader.serve(source, .init(data: photo))
        let objectStore = MemoryCache<String, CachedData>(costLimit: 64 << 20)
        let first = try pipeline(loader, folder: "one", tiers: [objectStore])
        let made = try await first.prepare(ImageRequest(url: source, target: small))
        XCTAssertEqual(made.cacheOutcome, .network)
        XCTAssertEqual(objectStore.count, 2, "the original and its variant")
        let second = try pipeline(loader, folder: "two", tiers: [objectStore])
        let variant = try await second.prepare(ImageRequest(url: source, target: small))
        let other = try await second.prepare(ImageRequest(url: source, target: .pixels(PixelSize(width: 10, height: 10))))
        XCTAssertEqual([variant.cacheOutcome, other.cacheOutcome], [.shared, .shared])
        XCTAssertEqual(loader.loads, 1)
        XCTAssertEqual(try second.diskCache.entries().count, 3, "both copies stored locally, and the new variant")
    }
}
