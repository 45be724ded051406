import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// `ImagePipeline.facts(for:)`: the facts of the variant's pixels, computed once per variant and
/// kept beside it on the disk for the file they describe.
final class ImagePipelineFactsTests: XCTestCase {
    private var root: URL!
    private let url = URL(string: "https://example.test/scene.png")!
    private let loader = CountingLoader()

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-facts-\(UUID().uuidString)")
        loader.serve(url, .init(data: try PNGEncoder.encode(TestImages.scene(width: 400, height: 300))))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private var request: ImageRequest { ImageRequest(url: url, target: .pixels(PixelSize(width: 200, height: 120)), contentMode: .crop) }

    func testFactsAreThoseOfTheVariantsPixelsAndAreKeptBesideIt() async throws {
        let pipeline = try loader.pipeline(root: root)
        let first = try await pipeline.facts(for: request)
        XCTAssertEqual(first.summary.pixelSize, PixelSize(width: 200, height: 120))
        XCTAssertEqual(first.summary.cacheOutcome, .network)
        // The pixels the variant was encoded from (the memory cache keeps them).
        let image = try await pipeline.image(for: request)
        XCTAssertEqual(first.facts, try ImageFacts(of: image.image.frames[0].bitmap))
        let key = FactsStore.key(first.summary.variantKey)
        let stored = try XCTUnwrap(try pipeline.diskCache.data(for: key))
        XCTAssertEqual(try JSONDecoder().decode(FactsStore.Entry.self, from: stored).facts, first.facts)
        await pipeline.shutdown()

        // Another pipeline on the same cache reads them: altered on the disk, the altered ones are
        // served, so nothing was computed again.
        let entry = try JSONDecoder().decode(FactsStore.Entry.self, from: stored)
        var fields = try XCTUnwrap(JSONSerialization.jsonObject(with: stored) as? [String: Any])
        var facts = try XCTUnwrap(fields["facts"] as? [String: Any])
        facts["blurhash"] = "altered"
        fields["facts"] = facts
        let altered = try JSONSerialization.data(withJSONObject: fields)
        let again = try loader.pipeline(root: root)
        _ = try again.diskCache.storeData(CachedData(data: altered), for: key, kind: .variant(of: url.absoluteString))
        let second = try await again.facts(for: request)
        XCTAssertEqual(second.facts.blurHash, "altered")
        XCTAssertEqual(second.summary.cacheOutcome, .disk)
        XCTAssertEqual(loader.loads, 1)
        XCTAssertFalse(entry.version.isEmpty)

        // Facts stored for another version of the file are not served.
        fields["version"] = "0:0:0:0.0"
        _ = try again.diskCache.storeData(
            CachedData(data: try JSONSerialization.data(withJSONObject: fields)), for: key, kind: .variant(of: url.absoluteString))
        let other = try loader.pipeline(root: root)
        let recomputed = try await other.facts(for: request)
        // From the stored JPEG decoded: its average within a level or two of the encoded pixels'.
        let (a, b) = (recomputed.facts.average, first.facts.average)
        XCTAssertLessThanOrEqual(max(abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue))), 2)
        XCTAssertNotEqual(recomputed.facts.blurHash, "altered")
        await other.shutdown()

        // The variant written again (a reload renders it anew): its facts are computed again.
        var reload = request
        reload.cachePolicy = .reload
        let reloaded = try await again.facts(for: reload)
        XCTAssertEqual(reloaded.facts, first.facts)
        let third = try await again.facts(for: request)
        XCTAssertEqual(third.facts, first.facts)

        // They go with the original.
        XCTAssertGreaterThan(try again.diskCache.remove(key: url.absoluteString, cascadeVariants: true), 1)
        XCTAssertNil(try again.diskCache.data(for: key))
        await again.shutdown()
    }

    func testCallsAtOnceShareOneDecodeAndAgreeAndLaterCallsDecodeNothing() async throws {
        let pipeline = try loader.pipeline(root: root)
        let request = self.request
        let results = try await withThrowingTaskGroup(of: VariantFacts.self) { group in
            for _ in 0..<8 { group.addTask { try await pipeline.facts(for: request) } }
            return try await group.reduce(into: [VariantFacts]()) { $0.append($1) }
        }
        XCTAssertEqual(Set(results.map(\.facts.blurHash)).count, 1)
        XCTAssertEqual(loader.loads, 1)
        XCTAssertEqual(pipeline.metrics.snapshot().stages[.decode]?.count, 1, "one decode for eight calls")
        for _ in 0..<3 { _ = try await pipeline.facts(for: request) }
        XCTAssertEqual(pipeline.metrics.snapshot().stages[.decode]?.count, 1, "stored facts are read, not computed")
        await pipeline.shutdown()
    }

    func testAVariantThatIsNotStoredHasFactsAndKeepsNone() async throws {
        let uncached = URL(string: "https://example.test/private.png")!
        loader.serve(uncached, .init(data: try PNGEncoder.encode(TestImages.scene(width: 90, height: 60)), noStore: true))
        let pipeline = try loader.pipeline(root: root)
        let result = try await pipeline.facts(for: ImageRequest(url: uncached))
        XCTAssertNil(result.summary.fileURL)
        XCTAssertEqual(result.facts.blurHash, try BlurHash.encode(TestImages.scene(width: 90, height: 60)))
        XCTAssertNil(try pipeline.diskCache.data(for: FactsStore.key(result.summary.variantKey)))
        await pipeline.shutdown()
    }

    func testAnInvalidRequestIsATypedError() async throws {
        let pipeline = try loader.pipeline(root: root)
        do {
            _ = try await pipeline.facts(for: ImageRequest(url: URL(string: "ftp://example.test/a.png")!))
            XCTFail("an ftp URL was taken")
        } catch let error as ImgCacheError {
            guard case .invalidURL = error else { return XCTFail("\(error)") }
        }
        await pipeline.shutdown()
    }
}
