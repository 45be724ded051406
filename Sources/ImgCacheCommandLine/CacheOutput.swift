import Foundation
import ImgCache

/// Prints what `imgcache cache` verbs found, as text lines or as JSON (keys sorted, dates in ISO 8601
/// UTC, sizes in bytes). Printing JSON throws `JSONError` for a value JSON cannot hold (a number
/// that is not finite), printing nothing.
struct CacheOutput {
    /// A value that cannot be written as JSON; the message names the figures and why.
    struct JSONError: Error, CustomStringConvertible {
        let description: String
    }

    let json: Bool

    /// The disk cache's figures, and with `redis` the tier's URL (without password) and its
    /// counters over every instance (nil: Redis unreachable).
    func print(stats: CacheStats, root: URL, redis: (RedisConfiguration, RedisTierCounters?)? = nil) throws {
        if json {
            var object: [String: Any] = [
                "root": root.path, "entries": stats.entryCount, "bytes": stats.totalBytes, "sizeLimit": stats.sizeLimit,
                "originals": stats.originalCount, "variants": stats.variantCount, "expired": stats.expiredCount,
                "oldestAccess": date(stats.oldestAccess), "newestAccess": date(stats.newestAccess),
            ]
            if let (configuration, counters) = redis {
                object["redis"] = [
                    "url": configuration.displayURL, "available": counters != nil, "hits": counters?.hits ?? NSNull(),
                    "misses": counters?.misses ?? NSNull(), "stores": counters?.stores ?? NSNull(),
                    "errors": counters?.errors ?? NSNull(), "rejected": counters?.rejected ?? NSNull(),
                    "leasesUnavailable": counters?.leasesUnavailable ?? NSNull(),
                ] as [String: Any]
            }
            return try emit(object, what: "the cache's figures")
        }
        let share = stats.sizeLimit > 0 ? Double(stats.totalBytes) / Double(stats.sizeLimit) * 100 : 0
        var lines = [
            "cache: \(root.path)",
            "entries: \(stats.entryCount) (\(stats.originalCount) originals, \(stats.variantCount) variants), \(stats.expiredCount) expired",
            "size: \(bytes(stats.totalBytes)) of a \(bytes(stats.sizeLimit)) limit (\(String(format: "%.1f", share))%)",
        ]
        if let oldest = stats.oldestAccess, let newest = stats.newestAccess {
            lines.append("last access: \(Self.iso(oldest)) to \(Self.iso(newest))")
        }
        if let (configuration, counters) = redis {
            lines.append("redis: \(configuration.displayURL): " + (counters.map {
                "\($0.hits) hits, \($0.misses) misses (\($0.rejected) rejected), \($0.stores) stores, \($0.errors) errors, "
                    + "\($0.leasesUnavailable) leases unavailable (all instances)"
            } ?? "unavailable"))
        }
        Swift.print(lines.joined(separator: "\n"))
    }

    func print(entries: [CacheEntry]) throws {
        if json { return try emit(entries.map(describe), what: "the entries") }
        for entry in entries {
            let kind = entry.kind == .original ? "original" : "variant "
            let size = String(entry.byteCount).leftPadded(to: 10)
            Swift.print("\(size)  \(kind)  \(Self.iso(entry.lastAccessAt))  \(entry.key)")
        }
    }

    func print(removal: CacheSweepResult) throws {
        if json {
            return try emit([
                "removed": removal.removedCount, "removedBytes": removal.removedBytes,
                "remaining": removal.remainingCount, "remainingBytes": removal.remainingBytes,
            ], what: "what was removed")
        }
        Swift.print("removed \(removal.removedCount) entries (\(bytes(removal.removedBytes))); "
            + "\(removal.remainingCount) left (\(bytes(removal.remainingBytes)))")
    }

    func print(report: CacheVerifyReport) throws {
        if json {
            return try emit([
                "checkedEntries": report.checkedEntries, "checkedFiles": report.checkedFiles,
                "rowsWithoutFiles": report.missingFiles, "filesWithoutRows": report.orphanFiles,
                "sizeMismatches": report.sizeMismatches.map {
                    ["key": $0.key, "file": $0.fileName, "indexedBytes": $0.indexedBytes, "fileBytes": $0.fileBytes]
                },
                "staleTemporaryFiles": report.staleTemporaryFiles, "consistent": report.isConsistent,
                "repaired": report.repaired,
            ], what: "the verification")
        }
        var lines = ["checked \(report.checkedEntries) entries and \(report.checkedFiles) files"]
        lines += report.missingFiles.map { "row without file: \($0)" }
        lines += report.orphanFiles.map { "file without row: data/\($0)" }
        lines += report.sizeMismatches.map { "size mismatch: \($0.key) (index \($0.indexedBytes) bytes, file \($0.fileBytes))" }
        lines += report.staleTemporaryFiles.map { "stale temporary file: \($0)" }
        if report.isConsistent {
            lines.append("consistent")
        } else {
            lines.append("\(report.issueCount) inconsistencies" + (report.repaired ? ", repaired" : ""))
        }
        Swift.print(lines.joined(separator: "\n"))
    }

    func print(path: String, key: String, entry: CacheEntry?) throws {
        if json {
            return try emit(
                ["key": key, "path": path, "stored": entry != nil, "bytes": entry?.byteCount ?? NSNull()], what: "the path")
        }
        Swift.print(path)
    }

    private func describe(_ entry: CacheEntry) -> [String: Any] {
        var original: Any = NSNull()
        if case .variant(let key) = entry.kind { original = key }
        return [
            "key": entry.key, "file": entry.fileName, "kind": entry.kind == .original ? "original" : "variant",
            "original": original, "bytes": entry.byteCount, "contentType": entry.contentType ?? NSNull(),
            "etag": entry.etag ?? NSNull(), "lastModified": entry.lastModified ?? NSNull(),
            "expiresAt": date(entry.expiresAt), "createdAt": date(entry.createdAt), "lastAccess": date(entry.lastAccessAt),
        ]
    }

    /// Prints `value` (`what` it holds, for the error) as pretty-printed JSON.
    func emit(_ value: Any, what: String) throws {
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: value, options: options)
        } catch {
            // Foundation's reason ("Invalid number value (nan) in JSON write") is in the debug description.
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw JSONError(description: "cannot write \(what) as JSON: \(reason)")
        }
        Swift.print(String(decoding: data, as: UTF8.self))
    }

    private func date(_ date: Date?) -> Any { date.map(Self.iso) ?? NSNull() }

    private func bytes(_ count: Int) -> String {
        let units: [(String, Double)] = [("GB", Double(1 << 30)), ("MB", Double(1 << 20)), ("KB", Double(1 << 10))]
        for (unit, size) in units where Double(count) >= size {
            return String(format: "%.1f %@", Double(count) / size, unit)
        }
        return "\(count) B"
    }

    private static func iso(_ date: Date) -> String { date.formatted(.iso8601) }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
