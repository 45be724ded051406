import Foundation
import XCTest
@testable import ImgCache

final class DiskCacheTests: XCTestCase {
    func testStoredBytesReadBackWithTheirMetadataUnderTheHashedName() throws {
        let cache = try makeCache()
        let url = "https://example.com/photos/cat.gif?w=200"
        let bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let expiry = Date(timeIntervalSince1970: 2_000_000_000)
        let stored = try cache.store(
            bytes, for: url, contentType: "image/gif", etag: "\"abc\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
            expiresAt: expiry)
        XCTAssertEqual(stored.fileName, "4b917c5c9e6a2783d116f549e4a7b162.gif")
        XCTAssertEqual(stored.fileURL.path, cache.root.appendingPathComponent("data/4b917c5c9e6a2783d116f549e4a7b162.gif").path)
        XCTAssertEqual(try Data(contentsOf: stored.fileURL), bytes)

        let entry = try XCTUnwrap(cache.entry(for: url))
        XCTAssertEqual(entry.byteCount, 5000)
        XCTAssertEqual(entry.kind, .original)
        XCTAssertEqual(entry.contentType, "image/gif")
        XCTAssertEqual(entry.etag, "\"abc\"")
        XCTAssertEqual(entry.lastModified, "Wed, 21 Oct 2015 07:28:00 GMT")
        XCTAssertEqual(entry.expiresAt, expiry)
        XCTAssertEqual(try cache.data(for: url), bytes)
        XCTAssertNil(try cache.data(for: "https://example.com/other.gif"))
    }

    func testFoldersAreCreatedPrivateAndTmpIsEmptyAfterAStore() throws {
        let root = try makeRoot().appendingPathComponent("nested/cache")
        let cache = try makeCache(root: root)
        try cache.store(Data("x".utf8), for: "https://example.com/a.png")
        for folder in [root, root.appendingPathComponent("data"), root.appendingPathComponent("tmp")] {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700, folder.path)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("tmp").path), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("index.sqlite").path))
    }

    func testIndexUsesWriteAheadLogging() throws {
        let cache = try makeCache()
        let mode = try cache.locked { _, index in try index.connection.rows("PRAGMA journal_mode") { $0.text(0) }.first }
        XCTAssertEqual(mode, "wal")
    }

    func testStoringAgainReplacesBytesAndMetadata() throws {
        let cache = try makeCache()
        let key = "https://example.com/a.jpg"
        try cache.store(Data(repeating: 1, count: 100), for: key, etag: "\"1\"")
        try cache.store(Data(repeating: 2, count: 40), for: key, etag: "\"2\"")
        XCTAssertEqual(try cache.data(for: key), Data(repeating: 2, count: 40))
        XCTAssertEqual(try cache.entry(for: key)?.etag, "\"2\"")
        let stats = try cache.stats()
        XCTAssertEqual(stats.entryCount, 1)
        XCTAssertEqual(stats.totalBytes, 40)
    }

    func testVariantsAreNamedByFormatAndRemovedWithTheirOriginalOnlyWhenAsked() throws {
        let cache = try makeCache()
        let original = "https://example.com/photo.jpeg"
        try cache.store(Data(repeating: 1, count: 10), for: original)
        let small = try cache.store(Data(repeating: 2, count: 5), for: original + "|fit 100x100", kind: .variant(of: original), format: .png)
        try cache.store(Data(repeating: 3, count: 5), for: original + "|fit 200x200", kind: .variant(of: original), format: .jpeg)
        XCTAssertEqual(small.fileName, CacheKey.hashedName(for: original + "|fit 100x100") + ".png")
        XCTAssertEqual(try cache.entry(for: original + "|fit 100x100")?.kind, .variant(of: original))
        XCTAssertEqual(try cache.stats().variantCount, 2)

        XCTAssertEqual(try cache.remove(key: original), 1)
        XCTAssertEqual(try cache.stats().entryCount, 2)
        try cache.store(Data(repeating: 1, count: 10), for: original)
        XCTAssertEqual(try cache.remove(key: original, cascadeVariants: true), 3)
        XCTAssertEqual(try cache.stats().entryCount, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.root.appendingPathComponent("data").path), [])
    }

    func testRefreshUpdatesExpiryAndValidatorsWithoutRewritingTheFile() throws {
        let cache = try makeCache()
        let key = "https://example.com/a.png"
        let stored = try cache.store(Data(repeating: 9, count: 64), for: key, etag: "\"v1\"", lastModified: "then",
                                     expiresAt: Date(timeIntervalSince1970: 1000))
        let inode = try FileManager.default.attributesOfItem(atPath: stored.fileURL.path)[.systemFileNumber] as? NSNumber
        let later = Date(timeIntervalSince1970: 3_000_000_000)
        let refreshed = try XCTUnwrap(cache.refresh(for: key, expiresAt: later, lastModified: "now"))
        XCTAssertEqual(refreshed.expiresAt, later)
        XCTAssertEqual(refreshed.etag, "\"v1\"")
        XCTAssertEqual(refreshed.lastModified, "now")
        XCTAssertFalse(refreshed.isExpired())
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: stored.fileURL.path)[.systemFileNumber] as? NSNumber, inode)
        XCTAssertNil(try cache.refresh(for: "https://example.com/none.png", expiresAt: later))
    }

    func testARowWhoseFileIsGoneIsAMissAndIsRemoved() throws {
        let cache = try makeCache()
        let key = "https://example.com/a.gif"
        let entry = try cache.store(Data(repeating: 1, count: 10), for: key)
        try FileManager.default.removeItem(at: entry.fileURL)
        XCTAssertNil(try cache.data(for: key))
        XCTAssertEqual(try cache.stats().entryCount, 0)

        let other = try cache.store(Data(repeating: 1, count: 10), for: key)
        try Data(repeating: 1, count: 3).write(to: other.fileURL)
        XCTAssertNil(try cache.entry(for: key), "a file of another size than recorded is a miss")
        XCTAssertFalse(FileManager.default.fileExists(atPath: other.fileURL.path))
        XCTAssertTrue(try cache.verify().isConsistent)
    }

    func testSymlinksInsideTheCacheAreRefused() throws {
        let root = try makeRoot()
        let elsewhere = try makeRoot()
        try makeCache(root: root).close()
        try FileManager.default.removeItem(at: root.appendingPathComponent("data"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("data"), withDestinationURL: elsewhere)
        XCTAssertThrowsError(try makeCache(root: root)) { error in
            guard case ImgCacheError.io(let path, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(path.hasSuffix("/data"), path)
            XCTAssertTrue(detail.contains("symlink"), detail)
        }

        let cache = try makeCache()
        let key = "https://example.com/a.png"
        let entry = try cache.store(Data(repeating: 1, count: 10), for: key)
        let secret = elsewhere.appendingPathComponent("secret")
        try Data(repeating: 7, count: 10).write(to: secret)
        try FileManager.default.removeItem(at: entry.fileURL)
        try FileManager.default.createSymbolicLink(at: entry.fileURL, withDestinationURL: secret)
        XCTAssertNil(try cache.data(for: key), "a symlink in data/ is never read")
        XCTAssertFalse(FileManager.default.fileExists(atPath: entry.fileURL.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: secret.path))
    }

    func testVerifyReportsAndRepairsEachKindOfInconsistency() throws {
        let cache = try makeCache()
        let data = cache.root.appendingPathComponent("data")
        let gone = try cache.store(Data(repeating: 1, count: 10), for: "https://example.com/gone.png")
        let resized = try cache.store(Data(repeating: 2, count: 10), for: "https://example.com/resized.png")
        try cache.store(Data(repeating: 3, count: 10), for: "https://example.com/fine.png")
        try FileManager.default.removeItem(at: gone.fileURL)
        try Data(repeating: 2, count: 4).write(to: resized.fileURL)
        try Data("stray".utf8).write(to: data.appendingPathComponent("0123456789abcdef0123456789abcdef.png"))

        let report = try cache.verify()
        XCTAssertEqual(report.checkedEntries, 3)
        XCTAssertEqual(report.checkedFiles, 3)
        XCTAssertEqual(report.missingFiles, ["https://example.com/gone.png"])
        XCTAssertEqual(report.orphanFiles, ["0123456789abcdef0123456789abcdef.png"])
        XCTAssertEqual(report.sizeMismatches, [.init(key: "https://example.com/resized.png", fileName: resized.fileName, indexedBytes: 10, fileBytes: 4)])
        XCTAssertEqual(report.issueCount, 3)
        XCTAssertFalse(report.repaired)
        XCTAssertEqual(try cache.stats().entryCount, 3, "verify without repair changes nothing")

        XCTAssertEqual(try cache.verify(repair: true).issueCount, 3)
        let after = try cache.verify()
        XCTAssertTrue(after.isConsistent)
        XCTAssertEqual(after.checkedEntries, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data.path).count, 1)
    }

    func testOpeningAfterAnUncleanExitRemovesLeftoversAndReconciles() throws {
        let root = try makeRoot()
        let cache = try makeCache(root: root)
        try cache.store(Data(repeating: 1, count: 10), for: "https://example.com/kept.png")
        let unlinked = try cache.store(Data(repeating: 1, count: 10), for: "https://example.com/removing.png")
        // What a killed writer leaves: a session that was never closed, a temporary file named after its
        // process, a file renamed into data/ whose row was never committed, and a file unlinked by a
        // removal whose row deletion was never committed.
        let deadProcess = ProcessIdentity(pid: 999_999_9, startTicks: 1)
        try FileManager.default.removeItem(at: unlinked.fileURL)
        try cache.locked { _, index in
            try index.connection.writeTransaction("test") {
                try index.insert(.init(process: deadProcess, instance: 0), now: Date())
            }
        }
        cache.close()
        let leftover = root.appendingPathComponent("tmp/\(deadProcess.pid)-1-1.tmp")
        let orphan = root.appendingPathComponent("data/" + CacheKey.fileName(forOriginal: "https://example.com/lost.png"))
        try Data(repeating: 2, count: 10).write(to: leftover)
        try Data(repeating: 3, count: 10).write(to: orphan)

        let reopened = try makeCache(root: root)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan.path))
        let report = try reopened.verify()
        XCTAssertTrue(report.isConsistent)
        XCTAssertEqual(report.checkedEntries, 1, "the row whose file was unlinked is gone")
        XCTAssertEqual(try reopened.data(for: "https://example.com/kept.png"), Data(repeating: 1, count: 10))
    }

    func testALiveWritersTemporaryFileIsLeftAlone() throws {
        let root = try makeRoot()
        _ = try makeCache(root: root)
        let me = ProcessIdentity.current
        let live = root.appendingPathComponent("tmp/\(me.pid)-\(me.startTicks)-999999.tmp")
        try Data(repeating: 1, count: 10).write(to: live)
        _ = try makeCache(root: root)
        XCTAssertTrue(FileManager.default.fileExists(atPath: live.path))
        XCTAssertTrue(ProcessIdentity.current.isAlive)
        XCTAssertFalse(ProcessIdentity(pid: me.pid, startTicks: me.startTicks + 1).isAlive)
    }

    func testClearRemovesEveryEntryAndFile() throws {
        let cache = try makeCache()
        for index in 0..<5 { try cache.store(Data(repeating: 1, count: 100), for: "https://example.com/\(index).png") }
        let result = try cache.clear()
        XCTAssertEqual(result.removedCount, 5)
        XCTAssertEqual(result.removedBytes, 500)
        XCTAssertEqual(try cache.stats().totalBytes, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.root.appendingPathComponent("data").path), [])
    }

    func testAClosedCacheThrowsAnIndexError() throws {
        let cache = try makeCache()
        cache.close()
        XCTAssertThrowsError(try cache.entry(for: "k")) { error in
            guard case ImgCacheError.cacheIndex(_, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("closed"))
        }
    }

    func testDefaultRootFollowsIMGCACHE_DIRThenXDGThenHome() {
        typealias Configuration = DiskCache.Configuration
        XCTAssertEqual(Configuration.defaultRoot(environment: ["IMGCACHE_DIR": "/srv/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"]).path, "/srv/c")
        XCTAssertEqual(Configuration.defaultRoot(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]).path, "/x/imgcache")
        XCTAssertEqual(Configuration.defaultRoot(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]).path, "/h/.cache/imgcache")
        XCTAssertEqual(Configuration.defaultRoot(environment: ["HOME": "/h"]).path, "/h/.cache/imgcache")
        let defaults = Configuration()
        XCTAssertEqual(defaults.sizeLimit, 256 * 1024 * 1024)
        XCTAssertEqual(defaults.lowWaterFraction, 0.7)
        XCTAssertTrue(defaults.syncWrites)
    }

    func testOutOfRangeConfigurationIsRefused() throws {
        XCTAssertThrowsError(try DiskCache(configuration: .init(root: try makeRoot(), lowWaterFraction: 1.5)))
        XCTAssertThrowsError(try DiskCache(configuration: .init(root: try makeRoot(), sizeLimit: -1)))
    }
}

extension XCTestCase {
    /// A fresh folder for a cache root, removed after the test.
    func makeRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        return root
    }

    /// A cache in a fresh folder (or `root`) with `syncWrites` off to keep tests quick.
    func makeCache(root: URL? = nil, sizeLimit: Int = 1 << 30, configure: (inout DiskCache.Configuration) -> Void = { _ in })
        throws -> DiskCache
    {
        var configuration = DiskCache.Configuration(root: try root ?? makeRoot(), sizeLimit: sizeLimit, syncWrites: false)
        configure(&configuration)
        return try DiskCache(configuration: configuration)
    }
}
