import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// Stored variants the pipeline remembers: answered by `storedSummary(for:)` without waiting while
/// fresh and unchanged on disk, looked up again otherwise, and stamped in the disk cache as reads.
final class RememberedVariantTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-remembered-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func pipeline(_ loader: CountingLoader, rememberedVariantLimit: Int = 10_000, stampInterval: TimeInterval = 5)
        throws -> ImagePipeline
    {
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        disk.accessStampFlushInterval = stampInterval
        return try ImagePipeline(configuration: ImagePipeline.Configuration(
            dataLoader: loader, diskCache: disk, rememberedVariantLimit: rememberedVariantLimit))
    }

    private func request(_ name: String, loader: CountingLoader, maxAge: TimeInterval = 3600) throws -> ImageRequest {
        let url = URL(string: "https://example.test/\(name)")!
        var resource = CountingLoader.Resource(data: try PNGEncoder.encode(TestImages.scene(width: 300, height: 200)))
        resource.maxAge = maxAge
        loader.serve(url, resource)
        return ImageRequest(url: url, target: .pixels(PixelSize(width: 90, height: 90)))
    }

    func testAPreparedVariantIsAnsweredWithoutWaitingUntilItsFileChanges() async throws {
        let loader = CountingLoader()
        let pipeline = try pipeline(loader)
        let request = try request("photo.png", loader: loader)
        XCTAssertNil(pipeline.storedSummary(for: request), "nothing is known before the first prepare")

        let prepared = try await pipeline.prepare(request)
        XCTAssertEqual(prepared.cacheOutcome, .network)
        let known = try XCTUnwrap(pipeline.storedSummary(for: request))
        XCTAssertEqual(known.cacheOutcome, .disk)
        XCTAssertEqual(known.fileURL, prepared.fileURL)
        XCTAssertEqual(known.pixelSize, PixelSize(width: 90, height: 60))
        XCTAssertEqual(known.byteCount, prepared.byteCount)
        XCTAssertEqual(known.format, prepared.format)
        XCTAssertEqual(known.variantKey, prepared.variantKey)
        XCTAssertEqual(pipeline.metrics.snapshot().requests[.disk], 1, "counted as prepare counts a disk hit")
        var reloading = request
        reloading.cachePolicy = .reload
        XCTAssertNil(pipeline.storedSummary(for: reloading), "a reload is never answered from what is remembered")

        // Another process replaces the file (a new inode): looked up again, and then known again.
        let file = try XCTUnwrap(prepared.fileURL)
        let bytes = try Data(contentsOf: file)
        try FileManager.default.removeItem(at: file)
        try bytes.write(to: file)
        XCTAssertNil(pipeline.storedSummary(for: request), "a replaced file is not the one remembered")
        let again = try await pipeline.prepare(request)
        XCTAssertEqual(again.cacheOutcome, .disk)
        XCTAssertEqual(loader.loads, 1)
        XCTAssertNotNil(pipeline.storedSummary(for: request))

        try FileManager.default.removeItem(at: file)
        XCTAssertNil(pipeline.storedSummary(for: request), "a removed file is not answered")
    }

    /// A caller's kept answer (a server's per-path memo) is current while the variant is
    /// remembered, fresh and its file at the version the caller saw; each current check counts a
    /// disk hit, a stale one counts nothing.
    func testAKeptSummaryIsCurrentUntilItsFileChangesOrExpires() async throws {
        let loader = CountingLoader()
        let pipeline = try pipeline(loader)
        let request = try request("photo.png", loader: loader)
        _ = try await pipeline.prepare(request)
        let known = try XCTUnwrap(pipeline.storedSummary(for: request))
        let path = try XCTUnwrap(known.fileURL).path
        let version = try XCTUnwrap(StoredFileVersion(path: path))
        XCTAssertEqual(version.size, Int64(known.byteCount))
        XCTAssertNil(StoredFileVersion(path: root.path), "a folder has no file version")

        XCTAssertTrue(pipeline.isStoredVariantCurrent(variantKey: known.variantKey, path: path, version: version))
        XCTAssertTrue(pipeline.isStoredVariantCurrent(variantKey: known.variantKey, path: path, version: version))
        XCTAssertEqual(pipeline.metrics.snapshot().requests[.disk], 3, "one storedSummary and two current checks")
        XCTAssertFalse(pipeline.isStoredVariantCurrent(variantKey: known.variantKey, path: path + ".other", version: version))
        XCTAssertFalse(pipeline.isStoredVariantCurrent(variantKey: known.variantKey + "x", path: path, version: version))

        // Replaced by another process: the caller's version is not the file's any more.
        let current = try XCTUnwrap(pipeline.storedSummary(for: request))
        let currentVersion = try XCTUnwrap(StoredFileVersion(path: path))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path)
        try bytes.write(to: URL(fileURLWithPath: path))
        let before = pipeline.metrics.snapshot().requests[.disk]
        XCTAssertFalse(pipeline.isStoredVariantCurrent(variantKey: current.variantKey, path: path, version: currentVersion))
        XCTAssertNotEqual(StoredFileVersion(path: path), currentVersion)
        XCTAssertEqual(pipeline.metrics.snapshot().requests[.disk], before, "a stale answer is not counted")
        XCTAssertNil(pipeline.storedSummary(for: request), "and the variant is looked up again")
    }

    func testAVariantPastItsOriginalsExpiryIsNotAnswered() async throws {
        let loader = CountingLoader()
        let pipeline = try pipeline(loader)
        let request = try request("photo.png", loader: loader, maxAge: 3600)
        let prepared = try await pipeline.prepare(request)
        let key = prepared.variantKey
        XCTAssertNotNil(pipeline.remembered.variant(for: key, at: Date().addingTimeInterval(3000)))
        XCTAssertNil(pipeline.remembered.variant(for: key, at: Date().addingTimeInterval(3700)), "stale an hour on")
        XCTAssertNil(pipeline.storedSummary(for: request), "forgotten once found stale")

        let unstored = try self.request("fleeting.png", loader: loader, maxAge: 0)
        _ = try await pipeline.prepare(unstored)
        XCTAssertNil(pipeline.storedSummary(for: unstored), "expired as soon as it was stored")
    }

    func testALimitOfZeroRemembersNothing() async throws {
        let loader = CountingLoader()
        let pipeline = try pipeline(loader, rememberedVariantLimit: 0)
        let request = try request("photo.png", loader: loader)
        _ = try await pipeline.prepare(request)
        XCTAssertNil(pipeline.storedSummary(for: request))
        let hit = try await pipeline.prepare(request)
        XCTAssertEqual(hit.cacheOutcome, .disk, "the disk cache still answers")
        XCTAssertThrowsError(try ImagePipeline(configuration: ImagePipeline.Configuration(rememberedVariantLimit: -1)))
    }

    /// Reads answered from memory keep the disk cache's least-recently-used order true: the
    /// variant read last is listed first once its stamp is written.
    func testReadsAnsweredWithoutALookupAreStampedInTheDiskCache() async throws {
        let loader = CountingLoader()
        let pipeline = try pipeline(loader, stampInterval: 0)
        let first = try request("first.png", loader: loader)
        let second = try request("second.png", loader: loader)
        let firstKey = try await pipeline.prepare(first).variantKey
        let secondKey = try await pipeline.prepare(second).variantKey
        let variants = { try pipeline.diskCache.entries().filter { $0.key == firstKey || $0.key == secondKey }.map(\.key) }
        XCTAssertEqual(try variants(), [secondKey, firstKey])

        XCTAssertNotNil(pipeline.storedSummary(for: first))
        // The stamp goes to a pool thread: wait for it.
        try await waitUntil("the first variant's stamp is written") { try variants() == [firstKey, secondKey] }
    }
}
