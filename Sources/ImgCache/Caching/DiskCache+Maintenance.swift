import Foundation

extension DiskCache {
    /// Rows removed per write transaction by sweeps, expiry passes and clears.
    static let removalBatchSize = 1000

    /// Removes entries not accessed within `timeToLive`, then, when the total is over `sizeLimit`,
    /// the least recently accessed entries until it is at most `lowWaterFraction` of the limit.
    /// Entries stored or read after the sweep began are spared. Pending access stamps are written
    /// first; other processes' reads count once they flushed theirs. Then checkpoints the index's WAL
    /// into the database and empties it (waiting up to about a second for readers of older
    /// snapshots; when they outlast that, the WAL is left to the next checkpoint), which bounds the
    /// WAL of a cache that is mostly read.
    @discardableResult
    public func sweep() throws -> CacheSweepResult {
        let result = try sweep(sparingFrom: Date())
        try locked { _, index in try index.checkpoint(.truncate) }
        return result
    }

    /// `sweep()`, sparing the entries accessed at or after `cutoff`: a store passes its own stamp so
    /// that the entry it reports stored survives the sweep it triggers.
    @discardableResult
    func sweep(sparingFrom cutoff: Date) throws -> CacheSweepResult {
        var result = try removeExpired()
        let limit = configuration.sizeLimit
        let target = Int(Double(limit) * configuration.lowWaterFraction)
        try locked { state, index in
            var over = try index.connection.read("sweep") { try index.totals().bytes } > limit
            while over {
                over = try write("sweep", &state, index) { state in
                    var total = try index.totals().bytes
                    let rows = try index.leastRecentlyAccessed(
                        limit: Self.removalBatchSize, before: cutoff.timeIntervalSince1970)
                    for row in rows where total > target {
                        try index.delete(key: row.key)
                        folder.removeDataFile(row.file)
                        state.stamps.forget(row.key)
                        total -= row.bytes
                        result.removedCount += 1
                        result.removedBytes += row.bytes
                    }
                    return total > target && rows.count == Self.removalBatchSize
                }
            }
            (result.remainingCount, result.remainingBytes) = try index.connection.read("sweep") { try index.totals() }
        }
        return result
    }

    /// Removes the entries not accessed within `timeToLive` before `now` (none when it is nil).
    @discardableResult
    public func removeExpired(now: Date = Date()) throws -> CacheSweepResult {
        try locked { state, index in
            try Self.flush(&state, index)
            var result = CacheSweepResult()
            if let timeToLive = configuration.timeToLive {
                let cutoff = now.timeIntervalSince1970 - timeToLive
                var more = true
                while more {
                    more = try write("remove expired", &state, index) { _ in
                        let rows = try index.leastRecentlyAccessed(limit: Self.removalBatchSize, before: cutoff)
                        for row in rows {
                            try index.delete(key: row.key)
                            folder.removeDataFile(row.file)
                            result.removedCount += 1
                            result.removedBytes += row.bytes
                        }
                        return rows.count == Self.removalBatchSize
                    }
                }
            }
            (result.remainingCount, result.remainingBytes) = try index.connection.read("remove expired") { try index.totals() }
            return result
        }
    }

    /// Removes every entry and every file in data/.
    @discardableResult
    public func clear() throws -> CacheSweepResult {
        try locked { state, index in
            _ = state.stamps.take()
            return try write("clear", &state, index) { _ in
                let (count, bytes) = try index.totals()
                try index.deleteAll()
                for name in try folder.listData().keys { folder.removeDataFile(name) }
                return CacheSweepResult(removedCount: count, removedBytes: bytes)
            }
        }
    }

    /// Counts and sizes from the index, after writing pending access stamps.
    public func stats(now: Date = Date()) throws -> CacheStats {
        try locked { state, index in
            try Self.flush(&state, index)
            return try index.connection.read("stats") { try index.summary(now: now, sizeLimit: configuration.sizeLimit) }
        }
    }

    /// Every entry, most recently accessed first, after writing pending access stamps.
    public func entries() throws -> [CacheEntry] {
        try locked { state, index in
            try Self.flush(&state, index)
            return try index.connection.read("list") { try index.allEntries() }
        }
    }

    /// Writes the access stamps pending in this instance.
    public func flushAccessStamps() throws {
        try locked { state, index in try Self.flush(&state, index) }
    }

    /// Compares the index with data/ and reports rows without files, files without rows and size
    /// mismatches, plus files left in tmp/ by ended writers; with `repair`, removes all of them.
    /// Holds the index's write lock while it looks, so that no store is caught half-way.
    public func verify(repair: Bool = false) throws -> CacheVerifyReport {
        try locked { state, index in
            try Self.flush(&state, index)
            guard repair else { return try Self.verify(index: index, folder: folder, repair: false) }
            try Self.register(&state, index, removingEnded: false, durable: configuration.syncWrites)
            let report = try Self.verify(index: index, folder: folder, repair: true)
            index.checkpoint(ifWALPagesAtLeast: CacheIndex.writerCheckpointPages)
            return report
        }
    }

    /// `verify(repair:)` on `index`, for a caller that registered first when it repairs.
    static func verify(index: CacheIndex, folder: CacheFolder, repair: Bool) throws -> CacheVerifyReport {
        var report = try index.connection.writeTransaction("verify") {
            let rows = try index.allFiles()
            var files = try folder.listData()
            var report = CacheVerifyReport(
                checkedEntries: rows.count, checkedFiles: files.count, missingFiles: [], orphanFiles: [],
                sizeMismatches: [], staleTemporaryFiles: [], repaired: repair)
            for row in rows {
                let state = files.removeValue(forKey: row.file) ?? .missing
                switch state {
                case .regular(let size) where size == row.bytes:
                    continue
                case .regular(let size):
                    report.sizeMismatches.append(.init(key: row.key, fileName: row.file, indexedBytes: row.bytes, fileBytes: size))
                case .missing, .other:
                    report.missingFiles.append(row.key)
                }
                if repair {
                    try index.delete(key: row.key)
                    if state != .missing { folder.removeDataFile(row.file) }
                }
            }
            report.orphanFiles = files.keys.sorted()
            if repair { for name in report.orphanFiles { folder.removeDataFile(name) } }
            return report
        }
        report.staleTemporaryFiles = folder.staleTemporaries()
        if repair { for path in report.staleTemporaryFiles { folder.removeTemporary(path) } }
        return report
    }
}
