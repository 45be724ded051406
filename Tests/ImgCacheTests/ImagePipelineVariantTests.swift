import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// What the pipeline stores and how little work it does for it: the automatic format, files served
/// without decoding, and one fetch and decode for many targets of one URL.
final class ImagePipelineVariantTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-variants-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func pipeline(_ loader: CountingLoader, root: URL? = nil) throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: root ?? self.root)
        disk.syncWrites = false
        return try ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, diskCache: disk))
    }

    private func url(_ name: String) -> URL { URL(string: "https://example.test/\(name)")! }

    private func gif(frames: Int) throws -> Data {
        let encoder = try GIFEncoder(size: PixelSize(width: 48, height: 48), loopCount: 0)
        for index in 0..<frames {
            try encoder.add(ImageFrame(bitmap: TestImages.scene(width: 48, height: 48, seed: UInt64(index)), delayCentiseconds: 4))
        }
        return try encoder.finish()
    }

    func testAutomaticFormatIsJPEGForOpaqueStillsPNGForTranslucentOnesAndGIFForAnimations() async throws {
        let loader = CountingLoader()
        loader.serve(url("opaque.png"), .init(data: try PNGEncoder.encode(TestImages.scene(width: 200, height: 100))))
        loader.serve(url("alpha.png"), .init(data: try PNGEncoder.encode(TestImages.scene(width: 200, height: 100, translucent: true))))
        loader.serve(url("anim.gif"), .init(data: try gif(frames: 5)))
        loader.serve(url("still.gif"), .init(data: try gif(frames: 1)))
        let pipeline = try pipeline(loader)
        let target = ImageTarget.pixels(PixelSize(width: 40, height: 40))
        let expected: [(String, ImageFormat, [UInt8], Int)] = [
            ("opaque.png", .jpeg, [0xFF, 0xD8, 0xFF], 1), ("alpha.png", .png, [0x89, 0x50, 0x4E, 0x47], 1),
            ("anim.gif", .gif, Array("GIF89a".utf8), 5), ("still.gif", .jpeg, [0xFF, 0xD8, 0xFF], 1),
        ]
        for (name, format, magic, frames) in expected {
            let response = try await pipeline.image(for: ImageRequest(url: url(name), target: target))
            XCTAssertEqual(response.format, format, name)
            XCTAssertEqual(response.image.frames.count, frames, name)
            let file = try XCTUnwrap(response.fileURL)
            XCTAssertEqual(file.pathExtension, format.fileExtension, name)
            XCTAssertEqual(Array(try Data(contentsOf: file).prefix(magic.count)), magic, name)
        }
        // An explicit still format keeps one frame of an animation: the response holds what is stored.
        let png = try await pipeline.image(for: ImageRequest(url: url("anim.gif"), target: target, outputFormat: .png))
        XCTAssertEqual(png.format, .png)
        XCTAssertEqual(png.image.frames.count, 1)
        XCTAssertEqual(png.summary.frameCount, 1)
    }

    func testPrepareReturnsAStoredVariantWithoutDecodingIt() async throws {
        let loader = CountingLoader()
        let source = url("alpha.png")
        loader.serve(source, .init(data: try PNGEncoder.encode(TestImages.scene(width: 300, height: 200, translucent: true))))
        let request = ImageRequest(url: source, target: .pixels(PixelSize(width: 90, height: 90)))
        let first = try await pipeline(loader).prepare(request)
        XCTAssertEqual(first.cacheOutcome, .network)
        XCTAssertEqual(first.pixelSize, PixelSize(width: 90, height: 60))
        let file = try XCTUnwrap(first.fileURL)
        // Damage the pixel data behind the headers, keeping the size: only a decode would notice.
        var bytes = try Data(contentsOf: file)
        for index in 60..<bytes.count - 20 { bytes[index] ^= 0x5A }
        try bytes.write(to: file)

        let hit = try await pipeline(loader).prepare(request)
        XCTAssertEqual(hit.cacheOutcome, .disk)
        XCTAssertEqual(hit.pixelSize, PixelSize(width: 90, height: 60))
        XCTAssertEqual(hit.frameCount, 1)
        XCTAssertEqual(hit.format, .png)
        XCTAssertEqual(hit.fileURL, file)
        XCTAssertEqual(try Data(contentsOf: file), bytes, "served as it is: nothing decoded it")

        // Asked for pixels, the pipeline decodes the file, finds the damage and renders it again.
        let image = try await pipeline(loader).image(for: request)
        XCTAssertEqual(image.cacheOutcome, .disk)
        XCTAssertNotEqual(try Data(contentsOf: file), bytes)
        XCTAssertEqual(try ImageDecoder.decode(.file(path: file.path)).frames, image.image.frames)
        XCTAssertEqual(loader.loads, 1)
    }

    func testPrefetchOfOneURLAtManyTargetsFetchesOnceAndMatchesSingleRequests() async throws {
        let loader = CountingLoader()
        let source = url("photo.jpg")
        loader.serve(source, .init(data: try JPEGEncoder.encode(TestImages.scene(width: 1600, height: 1200), quality: 90)))
        let sizes = [(1600, 1200), (700, 700), (390, 300), (200, 200), (120, 90), (700, 700)]
        let requests = sizes.map { size in
            ImageRequest(url: source, target: .pixels(PixelSize(width: size.0, height: size.1)), contentMode: .crop)
        }
        let results = await (try pipeline(loader)).prefetch(requests)
        XCTAssertEqual(loader.loads, 1, "one download for every target")
        let summaries = try results.map { try $0.get() }
        XCTAssertEqual(summaries.map(\.pixelSize), sizes.map { PixelSize(width: $0.0, height: $0.1) })
        XCTAssertEqual(summaries[1].fileURL, summaries[5].fileURL, "the same target twice is one variant")

        // Each variant is byte for byte what a request of its own makes.
        let single = try pipeline(loader, root: root.appendingPathComponent("single"))
        for (request, summary) in zip(requests, summaries) {
            let alone = try await single.image(for: request)
            XCTAssertEqual(try alone.encodedData(), try Data(contentsOf: XCTUnwrap(summary.fileURL)), "\(request.target!)")
        }
    }

    func testPrefetchOfADamagedOriginalFailsEveryTargetAndStoresNothing() async throws {
        let loader = CountingLoader()
        let source = url("broken.jpg")
        let jpeg = try JPEGEncoder.encode(TestImages.scene(width: 400, height: 300))
        loader.serve(source, .init(data: jpeg.prefix(jpeg.count / 2)))
        let requests = [100, 200, 300].map { ImageRequest(url: source, target: .pixels(PixelSize(width: $0, height: $0))) }
        let results = await (try pipeline(loader)).prefetch(requests)
        for result in results {
            XCTAssertThrowsError(try result.get()) { error in
                guard case .corruptImage(.jpeg, _)? = error as? ImgCacheError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(loader.loads, 1)
        XCTAssertEqual(try DiskCache(configuration: DiskCache.Configuration(root: root)).entries().count, 0)
    }
}

extension ImagePipelineVariantTests {
    func testAnOriginalOverTheCacheSizeLimitIsServedWithoutBeingStoredAndItsVariantIsStored() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://example.test/big.png")!
        let png = try PNGEncoder.encode(TestImages.scene(width: 300, height: 200, translucent: true))
        loader.serve(source, .init(data: png))
        var disk = DiskCache.Configuration(root: root, sizeLimit: png.count - 1)
        disk.syncWrites = false
        let pipeline = try ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, diskCache: disk))
        let response = try await pipeline.image(for: ImageRequest(url: source, target: .pixels(PixelSize(width: 60, height: 60))))
        XCTAssertEqual(response.pixelSize, PixelSize(width: 60, height: 40))
        XCTAssertEqual(try ImageDecoder.decode(.data(response.encodedData())).size, PixelSize(width: 60, height: 40))
        // The variant fits: it is stored (it expires with the original's freshness), the original is not.
        let entries = try pipeline.diskCache.entries()
        XCTAssertEqual(entries.map(\.kind), [.variant(of: source.absoluteString)])
        XCTAssertEqual(entries.first?.fileURL, response.fileURL)
    }
}

extension ImagePipelineVariantTests {
    func testFragmentsAreNotPartOfTheOriginalsKeyAndCannotReachAVariantsKey() async throws {
        let loader = CountingLoader()
        let png = try PNGEncoder.encode(TestImages.scene(width: 120, height: 80, translucent: true))
        let plain = url("frag.png")
        for suffix in ["", "#one", "#two"] { loader.serve(URL(string: plain.absoluteString + suffix)!, .init(data: png)) }
        let pipeline = try pipeline(loader)
        let target = ImageTarget.pixels(PixelSize(width: 30, height: 30))
        let first = try await pipeline.prepare(ImageRequest(url: URL(string: plain.absoluteString + "#one")!, target: target))
        let second = try await pipeline.prepare(ImageRequest(url: URL(string: plain.absoluteString + "#two")!, target: target))
        XCTAssertEqual(loader.loads, 1, "one original for every fragment")
        XCTAssertEqual(first.fileURL, second.fileURL)
        XCTAssertEqual(second.cacheOutcome, .disk)
        let keys = try pipeline.diskCache.entries().map(\.key)
        XCTAssertTrue(keys.contains(plain.absoluteString), "\(keys)")
        // A URL whose fragment spells a variant key is still that URL's original, not the variant.
        let variantKey = try XCTUnwrap(keys.first { $0.contains("#imgcache-variant:") })
        let forged = URL(string: variantKey)!
        loader.serve(forged, .init(data: png))
        let original = try await pipeline.data(for: forged)
        XCTAssertEqual(original.data, png)
        XCTAssertEqual(try pipeline.diskCache.entry(for: variantKey)?.kind, .variant(of: plain.absoluteString))
        XCTAssertEqual(CacheKey.originalKey(for: forged), plain.absoluteString)
    }
}

extension ImagePipelineVariantTests {
    /// Another process's sweep may remove a stored original between its lookup and its decode: the
    /// file is opened with the lookup, so the decode still reads it.
    func testAStoredOriginalRemovedAfterItsLookupStillDecodes() async throws {
        let loader = CountingLoader()
        let source = url("swept.png")
        loader.serve(source, .init(data: try PNGEncoder.encode(TestImages.scene(width: 200, height: 100, translucent: true))))
        let pipeline = try pipeline(loader)
        _ = try await pipeline.data(for: source)
        let request = OriginalRequest(url: source, key: source.absoluteString, headers: [:], policy: .useCache, storage: .all, requiresImage: true)
        let original = try await pipeline.preparer.originals.fetch(request, context: WorkContext(priority: .normal))
        XCTAssertEqual(original.outcome, .disk)
        let file = try XCTUnwrap(original.copy.fileURL)
        try FileManager.default.removeItem(at: file) // the sweep
        XCTAssertThrowsError(try ImageDecoder.decode(.file(path: file.path)), "by its path, the file is gone")
        let decoded = try ImageDecoder.decode(original.copy.source, options: DecodingOptions(targetSize: PixelSize(width: 50, height: 50)))
        XCTAssertEqual(decoded.size, PixelSize(width: 50, height: 25))
        // And a lookup that finds the file gone downloads it again.
        let again = try await pipeline.prepare(ImageRequest(url: source, target: .pixels(PixelSize(width: 40, height: 40))))
        XCTAssertEqual(again.cacheOutcome, .network)
        XCTAssertEqual(loader.loads, 2)
    }
}
