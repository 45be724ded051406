import Foundation
import XCTest
@testable import ImgCache

final class DiskCacheSweepTests: XCTestCase {
    private func key(_ number: Int) -> String { "https://example.com/\(number).png" }

    func testAStoreOverTheLimitTrimsToTheLowWaterMarkLeastRecentlyAccessedFirst() throws {
        let cache = try makeCache(sizeLimit: 10_000)
        for number in 0..<10 { try cache.store(Data(repeating: UInt8(number), count: 1000), for: key(number)) }
        XCTAssertEqual(try cache.stats().totalBytes, 10_000, "at the limit, not over it: nothing evicted")
        for number in [0, 1, 2] { XCTAssertNotNil(try cache.data(for: key(number))) }

        try cache.store(Data(repeating: 10, count: 1000), for: key(10))

        // Access order, oldest first: 3 4 5 6 7 8 9 (stored), 0 1 2 (read), 10 (stored last).
        // 11,000 bytes over a 10,000 limit trim to 7,000 (0.7): the four least recent go.
        let kept = Set(try cache.entries().map(\.key))
        XCTAssertEqual(kept, Set([7, 8, 9, 0, 1, 2, 10].map(key)))
        XCTAssertEqual(try cache.stats().totalBytes, 7000)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.root.appendingPathComponent("data").path)
        XCTAssertEqual(files.count, 7)
        XCTAssertTrue(try cache.verify().isConsistent)
    }

    func testAnExplicitSweepUnderTheLimitRemovesNothing() throws {
        let cache = try makeCache(sizeLimit: 10_000)
        for number in 0..<5 { try cache.store(Data(repeating: 1, count: 1000), for: key(number)) }
        let result = try cache.sweep()
        XCTAssertEqual(result, CacheSweepResult(removedCount: 0, removedBytes: 0, remainingCount: 5, remainingBytes: 5000))
    }

    func testASweepReachesTheLowWaterMarkAcrossManyBatches() throws {
        let cache = try makeCache(sizeLimit: 1 << 30) { $0.sweepsWhenOverLimit = false }
        let count = DiskCache.removalBatchSize * 2 + 500
        for number in 0..<count { try cache.store(Data(repeating: 1, count: 10), for: key(number)) }
        // 2,500 entries of 10 bytes over a 12,500-byte limit, trimmed to 10%: the newest 125 stay.
        let limited = try makeCache(root: cache.root, sizeLimit: 12_500) { $0.lowWaterFraction = 0.1 }
        let result = try limited.sweep()
        XCTAssertEqual(result, CacheSweepResult(removedCount: 2375, removedBytes: 23_750, remainingCount: 125, remainingBytes: 1250))
        XCTAssertEqual(Set(try limited.entries().map(\.key)), Set((2375..<count).map(key)))
    }

    func testAnEntryOverTheWholeLimitIsRefused() throws {
        let cache = try makeCache(sizeLimit: 100)
        XCTAssertThrowsError(try cache.store(Data(count: 101), for: key(1))) { error in
            guard case ImgCacheError.invalidArgument = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try cache.stats().entryCount, 0)
    }

    func testTheSweepAStoreTriggersKeepsTheNewEntryEvenAboveTheLowWaterMark() throws {
        let cache = try makeCache(sizeLimit: 100)
        try cache.store(Data(count: 50), for: key(1))
        try cache.store(Data(count: 90), for: key(2))
        // 140 bytes over 100: the older entry goes; the new one alone is 90, above the 70 low-water
        // mark but within the limit, and stays since the store reported it stored.
        XCTAssertNil(try cache.entry(for: key(1)))
        XCTAssertEqual(try cache.data(for: key(2))?.count, 90)
        XCTAssertEqual(try cache.stats().totalBytes, 90)
    }

    func testReadsReachTheIndexInBatches() throws {
        let cache = try makeCache { $0.accessStampFlushCount = 4 }
        let observer = try makeCache(root: cache.root)
        for number in 0..<4 { try cache.store(Data(count: 10), for: key(number)) }
        let before = try observer.entries().reduce(into: [:]) { $0[$1.key] = $1.lastAccessAt }

        for number in 0..<3 { XCTAssertNotNil(try cache.data(for: key(number))) }
        let pending = try observer.entries().reduce(into: [:]) { $0[$1.key] = $1.lastAccessAt }
        XCTAssertEqual(pending, before, "three reads are still in memory")

        XCTAssertNotNil(try cache.entry(for: key(3)))
        let flushed = try observer.entries()
        XCTAssertEqual(flushed.first?.key, key(3), "most recently read first")
        XCTAssertNotNil(try cache.data(for: key(0)))
        try cache.flushAccessStamps()
        XCTAssertEqual(try observer.entries().first?.key, key(0), "an explicit flush writes a single pending stamp")
        XCTAssertEqual(flushed.count, 4)
        for entry in flushed { XCTAssertGreaterThan(entry.lastAccessAt, before[entry.key]!, entry.key) }
    }

    func testRemoveExpiredRemovesEntriesIdleLongerThanTheTimeToLive() throws {
        let cache = try makeCache { $0.timeToLive = 100 }
        let old = try cache.store(Data(count: 10), for: key(1))
        let recent = try cache.store(Data(count: 20), for: key(2))
        let between = old.lastAccessAt.timeIntervalSince1970 + 100
            + (recent.lastAccessAt.timeIntervalSince(old.lastAccessAt)) / 2
        XCTAssertEqual(try cache.removeExpired(now: old.lastAccessAt.addingTimeInterval(50)).removedCount, 0)
        let result = try cache.removeExpired(now: Date(timeIntervalSince1970: between))
        XCTAssertEqual(result, CacheSweepResult(removedCount: 1, removedBytes: 10, remainingCount: 1, remainingBytes: 20))
        XCTAssertNil(try cache.entry(for: key(1)))
        XCTAssertNotNil(try cache.entry(for: key(2)))
    }

    func testHTTPExpiryIsReportedButKeepsTheEntryForRevalidation() throws {
        let cache = try makeCache()
        try cache.store(Data(count: 10), for: key(1), etag: "\"e\"", expiresAt: Date(timeIntervalSinceNow: -60))
        XCTAssertEqual(try cache.stats().expiredCount, 1)
        XCTAssertEqual(try cache.sweep().removedCount, 0)
        XCTAssertEqual(try cache.entry(for: key(1))?.isExpired(), true)
    }
}
