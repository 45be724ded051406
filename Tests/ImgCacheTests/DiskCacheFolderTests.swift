import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// Which folders a disk cache takes: a missing or empty one (then tagged), its own, or an earlier
/// version's (known by its index); any other folder is refused untouched. Inside a cache, only
/// the names the cache gives are ever removed.
final class DiskCacheFolderTests: XCTestCase {
    private func assertNotACache(_ root: URL, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try makeCache(root: root), file: file, line: line) { error in
            guard case ImgCacheError.io(let path, let detail) = error else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(path, root.path, file: file, line: line)
            XCTAssertTrue(detail.hasPrefix("not an imgcache cache, and not empty: nothing in it was changed"), detail, file: file, line: line)
        }
    }

    private func applicationID(_ root: URL) throws -> Int {
        let connection = try SQLiteConnection(path: root.appendingPathComponent("index.sqlite").path, lockTimeout: 10)
        defer { connection.close() }
        return try connection.read("test") { try connection.rows("PRAGMA application_id") { $0.integer(0) }.first ?? -1 }
    }

    func testAMissingOrEmptyFolderBecomesATaggedCache() throws {
        for root in [try makeRoot(), try makeRoot().appendingPathComponent("new/cache")] {
            let cache = try makeCache(root: root)
            try cache.store(Data("x".utf8), for: "https://example.com/a.png")
            XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("CACHEDIR.TAG"), encoding: .utf8), CacheFolder.tagText)
            XCTAssertTrue(CacheFolder.tagText.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55\n"))
            XCTAssertEqual(try applicationID(root), 0x696D_6763)
            cache.close()
            XCTAssertEqual(try makeCache(root: root).data(for: "https://example.com/a.png"), Data("x".utf8))
        }
    }

    func testAFolderHoldingSomeonesFilesIsRefusedAndLeftByteForByteAsItWas() throws {
        let root = try makeRoot()
        try UserFolder.populate(root)
        let before = try UserFolder.snapshot(root)
        assertNotACache(root)
        XCTAssertEqual(try UserFolder.snapshot(root), before)

        // Nor is it taken for a cache because of an index.sqlite that is not imgcache's, or
        // another program's CACHEDIR.TAG.
        let text = root.appendingPathComponent("index.sqlite")
        try Data("id,name\n1,index\n".utf8).write(to: text)
        assertNotACache(root)
        try FileManager.default.removeItem(at: text)

        let database = try SQLiteConnection(path: text.path, lockTimeout: 10)
        try database.execute("CREATE TABLE entries (a); CREATE TABLE people (name)")
        database.close()
        let withDatabase = try UserFolder.snapshot(root)
        assertNotACache(root)
        XCTAssertEqual(try UserFolder.snapshot(root), withDatabase)
        try FileManager.default.removeItem(at: text)

        try Data("Signature: 8a477f597d28d172789f06886806bc55\n# another tool's cache\n".utf8)
            .write(to: root.appendingPathComponent("CACHEDIR.TAG"))
        let tagged = try UserFolder.snapshot(root)
        assertNotACache(root)
        XCTAssertEqual(try UserFolder.snapshot(root), tagged)
    }

    func testAnEarlierVersionsCacheIsKnownByItsIndexThenTaggedWithItsEntriesKept() throws {
        let root = try makeRoot()
        let cache = try makeCache(root: root)
        try cache.store(Data(repeating: 1, count: 10), for: "https://example.com/kept.png")
        try cache.store(Data(repeating: 2, count: 20), for: "https://example.com/also.jpg")
        // What an earlier version leaves: no tag, no application id, and here a session that
        // never closed, so that the open reconciles the index with data/ as after a crash.
        try cache.locked { _, index in
            try index.connection.writeTransaction("test") {
                try index.insert(.init(process: ProcessIdentity(pid: 999_999_9, startTicks: 1), instance: 0), now: Date())
                try index.connection.execute("PRAGMA application_id = 0")
            }
        }
        cache.close()
        try FileManager.default.removeItem(at: root.appendingPathComponent("CACHEDIR.TAG"))
        XCTAssertEqual(try applicationID(root), 0)

        let reopened = try makeCache(root: root)
        XCTAssertEqual(try reopened.data(for: "https://example.com/kept.png"), Data(repeating: 1, count: 10))
        XCTAssertEqual(try reopened.data(for: "https://example.com/also.jpg"), Data(repeating: 2, count: 20))
        XCTAssertTrue(try reopened.verify().isConsistent)
        XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("CACHEDIR.TAG"), encoding: .utf8), CacheFolder.tagText)
        XCTAssertEqual(try applicationID(root), 0x696D_6763)
    }

    func testATaggedFolderWithAnotherProgramsDatabaseAsItsIndexIsAnIndexError() throws {
        let root = try makeRoot()
        try makeCache(root: root).close()
        let index = root.appendingPathComponent("index.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index.path + suffix) }
        let database = try SQLiteConnection(path: index.path, lockTimeout: 10)
        try database.execute("CREATE TABLE people (name); INSERT INTO people VALUES ('ada')")
        database.close()
        XCTAssertThrowsError(try makeCache(root: root)) { error in
            guard case ImgCacheError.cacheIndex(let path, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, index.path)
            XCTAssertTrue(detail.contains("not an imgcache index"), detail)
        }
    }

    func testInsideACacheOpeningVerifyRepairSweepAndClearRemoveOnlyTheNamesTheCacheGives() throws {
        let root = try makeRoot()
        var cache: DiskCache? = try makeCache(root: root) { $0.timeToLive = 1 }
        try cache?.store(Data(repeating: 1, count: 10), for: "https://example.com/stored.png")
        try cache?.locked { _, index in
            try index.connection.writeTransaction("test") {
                try index.insert(.init(process: ProcessIdentity(pid: 999_999_9, startTicks: 1), instance: 0), now: Date())
            }
        }
        cache?.close()
        cache = nil
        // Someone's files in the cache's folders, then what the cache itself would leave: an
        // orphan in data/ and a dead writer's temporary file in tmp/.
        let outside = try makeRoot()
        let target = outside.appendingPathComponent("target.txt")
        try Data("outside".utf8).write(to: target)
        let data = root.appendingPathComponent("data"), temporary = root.appendingPathComponent("tmp")
        let users = [
            data.appendingPathComponent("report.csv"), data.appendingPathComponent("0123456789ABCDEF0123456789ABCDEF.png"),
            data.appendingPathComponent("0123456789abcdef0123456789abcde.png"), data.appendingPathComponent("0123456789abcdef0123456789abcdef/inner.txt"),
            temporary.appendingPathComponent("draft.txt"), temporary.appendingPathComponent("1-2.tmp"),
            temporary.appendingPathComponent("12-34-56.tmp/inner.txt"), root.appendingPathComponent("notes.txt"),
        ]
        for file in users {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("user's \(file.lastPathComponent)".utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: file.path)
        }
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("abcdefabcdefabcdefabcdefabcdefab.txt"), withDestinationURL: target)
        let orphan = data.appendingPathComponent(CacheKey.fileName(forOriginal: "https://example.com/orphan.gif"))
        let leftover = temporary.appendingPathComponent("999999999-1-7.tmp")
        try Data("orphan".utf8).write(to: orphan)
        try Data("leftover".utf8).write(to: leftover)

        let reopened = try makeCache(root: root) { $0.timeToLive = 1 }
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan.path), "the open reconciled data/")
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("abcdefabcdefabcdefabcdefabcdefab.txt").path),
                       "a symlink named as a cache file is removed itself")
        XCTAssertEqual(try Data(contentsOf: target), Data("outside".utf8), "never what it points to")

        try reopened.store(Data(repeating: 2, count: 10), for: "https://example.com/second.png")
        try Data("orphan".utf8).write(to: orphan)
        let report = try reopened.verify(repair: true)
        XCTAssertEqual(report.orphanFiles, [orphan.lastPathComponent])
        XCTAssertEqual(report.checkedFiles, 3)
        XCTAssertEqual(try reopened.removeExpired(now: Date(timeIntervalSinceNow: 60)).removedCount, 2)
        try reopened.store(Data(repeating: 3, count: 10), for: "https://example.com/third.png")
        XCTAssertEqual(try reopened.clear().removedCount, 1)
        for file in users {
            XCTAssertEqual(try Data(contentsOf: file), Data("user's \(file.lastPathComponent)".utf8), file.path)
        }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: data.path)), [
            "report.csv", "0123456789ABCDEF0123456789ABCDEF.png", "0123456789abcdef0123456789abcde.png", "0123456789abcdef0123456789abcdef",
        ])
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: temporary.path)), ["draft.txt", "1-2.tmp", "12-34-56.tmp"])
    }

    func testNothingIsRemovedThroughADataFolderSwappedForASymlinkWhileTheCacheIsOpen() throws {
        let cache = try makeCache()
        try cache.store(Data(repeating: 1, count: 10), for: "https://example.com/a.png")
        let elsewhere = try makeRoot()
        let users = elsewhere.appendingPathComponent(UserFolder.cacheLikeDataName)
        try Data("user's".utf8).write(to: users)
        let data = cache.root.appendingPathComponent("data")
        try FileManager.default.removeItem(at: data)
        try FileManager.default.createSymbolicLink(at: data, withDestinationURL: elsewhere)
        for (name, operation) in [("clear", { _ = try cache.clear() }), ("repair", { _ = try cache.verify(repair: true) })] {
            XCTAssertThrowsError(try operation(), name) { error in
                XCTAssertEqual(error as? ImgCacheError, .io(path: data.path, detail: "refusing a symlink or file where the cache expects a folder"))
            }
        }
        // One entry at a time: its row goes, the file of that name elsewhere stays.
        try Data(repeating: 2, count: 10).write(to: elsewhere.appendingPathComponent(CacheKey.fileName(forOriginal: "https://example.com/a.png")))
        XCTAssertEqual(try cache.remove(key: "https://example.com/a.png"), 1)
        XCTAssertEqual(try Data(contentsOf: elsewhere.appendingPathComponent(CacheKey.fileName(forOriginal: "https://example.com/a.png"))),
                       Data(repeating: 2, count: 10))
        XCTAssertEqual(try Data(contentsOf: users), Data("user's".utf8))
    }

    func testTheNamesTheCacheGives() {
        let hex = "0123456789abcdef0123456789abcdef"
        for name in [hex, hex + ".png", hex + ".tar.gz", CacheKey.fileName(forOriginal: "https://example.com/a%20b.J PG")] {
            XCTAssertTrue(CacheFolder.isDataFileName(name), name)
        }
        for name in [hex + ".", hex.uppercased(), String(hex.dropLast()), hex + "0", "report.csv", hex + "x.png", ""] {
            XCTAssertFalse(CacheFolder.isDataFileName(name), name)
        }
        XCTAssertTrue(CacheFolder.isTemporaryFileName(ProcessIdentity.temporaryFileName()))
        XCTAssertTrue(CacheFolder.isTemporaryFileName("1-2-3.tmp"))
        for name in ["1-2.tmp", "1-2-3-4.tmp", "a-2-3.tmp", "1--3.tmp", "1-2-3.tmpx", "1-2-3", "draft.txt", ".tmp"] {
            XCTAssertFalse(CacheFolder.isTemporaryFileName(name), name)
        }
    }
}
