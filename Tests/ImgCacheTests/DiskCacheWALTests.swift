import Foundation
import XCTest
@testable import ImgCache

/// Who checkpoints the index's WAL (the only syncs of SQLite in WAL mode with `synchronous =
/// NORMAL`): writers, `sweep()` and the limit, never a process that only reads.
final class DiskCacheWALTests: XCTestCase {
    private func key(_ number: Int) -> String { "https://example.com/\(number % 20).png" }

    /// A folder holding 20 entries, stored by a cache that was closed since.
    private func storedRoot() throws -> URL {
        let root = try makeRoot()
        let writer = try makeCache(root: root)
        for number in 0..<20 { try writer.store(Data(repeating: UInt8(number), count: 100), for: key(number)) }
        writer.close()
        return root
    }

    /// A cache on `root` that writes each access stamp at once.
    private func reader(_ root: URL) throws -> DiskCache {
        try makeCache(root: root) { $0.accessStampFlushCount = 1 }
    }

    private func walPages(_ cache: DiskCache) throws -> Int {
        try cache.locked { _, index in index.connection.walPages }
    }

    private func sessions(_ cache: DiskCache) throws -> [CacheIndex.Session] {
        try cache.locked { _, index in try index.connection.read("test") { try index.sessions() } }
    }

    /// The WAL file: its size, its page size, and its frames that belong to its current generation
    /// (their salts are the header's), as the next process to open the index reads them.
    private func wal(_ root: URL) throws -> (bytes: Int, pageSize: Int, frames: Int) {
        let wal = try Data(contentsOf: root.appendingPathComponent("index.sqlite-wal"))
        guard wal.count >= 32 else { return (wal.count, 0, 0) }
        let pageSize = wal[8..<12].reduce(0) { $0 << 8 | Int($1) }
        var frames = 0
        var offset = 32
        while offset + 24 + pageSize <= wal.count, wal[(offset + 8)..<(offset + 16)].elementsEqual(wal[16..<24]) {
            frames += 1
            offset += 24 + pageSize
        }
        return (wal.count, pageSize, frames)
    }

    private func walFrames(_ root: URL) throws -> Int { try wal(root).frames }

    func testAReaderRegistersNothingAndItsStampsNeverCheckpointBelowTheLimit() throws {
        let root = try storedRoot()
        let closedByWriter = try walFrames(root)
        XCTAssertGreaterThan(closedByWriter, 0, "the WAL is kept, so that a reader never starts one")
        XCTAssertLessThanOrEqual(closedByWriter, 3, "the writer's close checkpointed and started the WAL over")

        let cache = try reader(root)
        var pages: [Int] = []
        for number in 0..<100 {
            XCTAssertNotNil(try cache.entry(for: key(number)))
            pages.append(try walPages(cache))
        }
        XCTAssertEqual(try sessions(cache), [], "a process that only reads is not in the sessions")
        XCTAssertEqual(pages, pages.sorted(), "no stamp checkpointed (the WAL never started over)")
        XCTAssertGreaterThan(pages[99], pages[0])
        XCTAssertLessThan(pages[99], CacheIndex.walPageLimit)
        cache.close()
        XCTAssertEqual(try walFrames(root), pages[99], "closing a reader leaves the WAL as it was")
    }

    func testStampsAloneKeepTheWALWithinItsLimit() throws {
        let cache = try reader(try storedRoot())
        var pages: [Int] = []
        for number in 0..<(CacheIndex.walPageLimit) {
            _ = try cache.entry(for: key(number))
            pages.append(try walPages(cache))
        }
        let restarts = zip(pages, pages.dropFirst()).filter { $0 > $1 }.count
        XCTAssertGreaterThan(restarts, 0, "the flush that reached the limit checkpointed")
        XCTAssertLessThan(pages.max() ?? 0, CacheIndex.walPageLimit + 10)
    }

    func testAWriteOverTheWritersThresholdCheckpointsAndStartsTheWALOver() throws {
        let root = try storedRoot()
        let cache = try reader(root)
        var number = 0
        while try walPages(cache) < CacheIndex.writerCheckpointPages {
            _ = try cache.entry(for: key(number))
            number += 1
        }
        let writer = try makeCache(root: root)
        XCTAssertEqual(try sessions(writer), [], "a writer registers at its first write")
        try writer.store(Data(repeating: 9, count: 10), for: "https://example.com/new.png")
        XCTAssertEqual(try sessions(writer), [writer.state.withLock { $0.session }])
        XCTAssertLessThan(try walPages(writer), 10, "the store checkpointed and started the WAL over")
        _ = try cache.entry(for: key(0))
        XCTAssertLessThan(try walPages(cache), 10, "the reader's stamps follow the writer's pages")
        writer.close()
        XCTAssertEqual(try sessions(cache), [], "a writer unregisters when it closes")
    }

    func testSweepEmptiesTheWALAndStartsItOver() throws {
        let root = try storedRoot()
        let cache = try reader(root)
        for number in 0..<100 { _ = try cache.entry(for: key(number)) }
        XCTAssertGreaterThan(try walFrames(root), 100)
        try cache.sweep()
        let after = try wal(root)
        XCTAssertEqual(after.frames, 1, "one page written after the checkpoint, so that no reader starts the WAL")
        XCTAssertEqual(after.bytes, 32 + 24 + after.pageSize, "the WAL file was truncated: header and one frame")
        XCTAssertEqual(try cache.entries().count, 20)
    }
}
