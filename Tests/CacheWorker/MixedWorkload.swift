import Foundation
import ImgCache

/// Mixed operations on a shared cache. Keys "wN-..." belong to worker N alone, so it knows what each
/// must hold; "shared-..." keys and their variants are written by every worker.
struct MixedWorkload {
    let cache: DiskCache
    let worker: Int
    var random: SplitMix
    /// This worker's keys: the version last stored, or "removed".
    private(set) var versions: [String: String] = [:]
    private(set) var counts: [String: Int] = [:]
    private var stored = 0

    init(cache: DiskCache, worker: Int, seed: UInt64) {
        self.cache = cache
        self.worker = worker
        random = SplitMix(seed: seed)
    }

    mutating func run(operations: Int) throws {
        for _ in 0..<operations {
            count("ops")
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<20: try putOwn()
            case 20..<32: try put(key: sharedKey(), kind: .original)
            case 32..<38:
                let original = sharedKey()
                try put(key: original + "|v\(Int.random(in: 0..<3, using: &random))", kind: .variant(of: original))
            case 38..<75: try get()
            case 75..<85: try removeOwn()
            case 85..<88: count("cascadeRemoved", try cache.remove(key: sharedKey(), cascadeVariants: true))
            case 88..<95:
                count("sweeps")
                count("evicted", try cache.sweep().removedCount)
            default: try survey()
            }
        }
    }

    private mutating func ownKey() -> String { "w\(worker)-\(Int.random(in: 0..<16, using: &random))" }
    private mutating func sharedKey() -> String { "shared-\(Int.random(in: 0..<24, using: &random))" }

    private mutating func count(_ name: String, _ amount: Int = 1) { counts[name, default: 0] += amount }

    @discardableResult
    private mutating func put(key: String, kind: CacheEntry.Kind) throws -> (Payload, CacheEntry) {
        stored += 1
        let payload = Payload(key: key, version: "\(worker).\(stored)", size: Int.random(in: 256...12_000, using: &random))
        let entry = try cache.store(
            payload.bytes, for: key, kind: kind, format: .png, contentType: "application/octet-stream",
            etag: "\"\(payload.version)\"")
        guard entry.byteCount == payload.length else { throw WorkerFailure(description: "\(key): stored size differs") }
        count("puts")
        count("bytesStored", payload.length)
        return (payload, entry)
    }

    /// Stores one of this worker's keys and reads it straight back. An entry reported stored must be
    /// there, unless a sweep evicted it in access order: then every entry left is at least as recent.
    private mutating func putOwn() throws {
        let key = ownKey()
        let (payload, entry) = try put(key: key, kind: .original)
        versions[key] = payload.version
        if let readBack = try cache.data(for: key) {
            guard readBack == payload.bytes else { throw WorkerFailure(description: "\(key): read back other bytes") }
            return
        }
        let older = try cache.entries().filter { $0.lastAccessAt < entry.lastAccessAt }
        guard older.isEmpty else {
            throw WorkerFailure(description: "\(key): lost right after storing it while \(older.count) older entries remain")
        }
        count("evictedRightAfterStore")
    }

    private mutating func get() throws {
        let own = Bool.random(using: &random)
        let key = own ? ownKey() : sharedKey() + (Bool.random(using: &random) ? "" : "|v\(Int.random(in: 0..<3, using: &random))")
        count("gets")
        guard let data = try cache.data(for: key) else {
            if own && versions[key] != nil && versions[key] != "removed" { count("evictedOwnMisses") }
            return
        }
        count("hits")
        guard let payload = Payload(validating: data), payload.key == key else {
            throw WorkerFailure(description: "\(key): read \(data.count) bytes that are partial or of another key")
        }
        if own && payload.version != versions[key] {
            throw WorkerFailure(description: "\(key): read version \(payload.version), last stored \(versions[key] ?? "none")")
        }
    }

    private mutating func removeOwn() throws {
        let key = ownKey()
        try cache.remove(key: key)
        versions[key] = "removed"
        count("removes")
    }

    /// Whole-index reads: stats, the listing, and an expiry pass.
    private mutating func survey() throws {
        let stats = try cache.stats()
        let listed = try cache.entries()
        guard stats.entryCount >= 0, listed.allSatisfy({ $0.byteCount > 0 }) else {
            throw WorkerFailure(description: "inconsistent listing")
        }
        try cache.removeExpired()
        count("surveys")
    }
}
