import Foundation

/// The image facts of stored variants: kept in memory and in the disk cache beside the variant
/// (key: the variant's key and ";facts", removed with its original), each with the version of the
/// variant file it was computed for, so that facts of a file written again are never served.
/// Facts of one variant being computed are shared by the callers that ask meanwhile.
struct FactsStore: Sendable {
    /// Facts as stored: the variant file's version they describe, and the facts.
    struct Entry: Sendable, Codable {
        let version: String
        let facts: ImageFacts

        /// Whether these facts were computed from the file at `path` as it is now (one `stat`).
        func describes(path: String) -> Bool {
            StoredFileVersion(path: path)?.fingerprint == version
        }
    }

    let disk: DiskCache
    let blocking: BlockingPool
    /// About 1 KB an entry, by variant key.
    let memory = MemoryCache<String, Entry>(costLimit: 4 << 20, maxEntryShare: 0.01)
    /// Facts being computed, by variant key.
    let inFlight = TaskCoalescer<String, VariantFacts>()

    /// The facts stored for the variant `variantKey` names, from memory or the disk; nil when
    /// there are none (or the stored copy does not read).
    func stored(_ variantKey: String) async -> Entry? {
        if let entry = memory.value(for: variantKey) { return entry }
        let disk = self.disk
        let stored = try? await blocking.run { () -> Entry? in
            guard let copy = try disk.cachedData(for: Self.key(variantKey)) else { return nil }
            return try JSONDecoder().decode(Entry.self, from: try copy.data())
        }
        guard let stored else { return nil }
        _ = memory.set(stored, for: variantKey, cost: 1024)
        return stored
    }

    /// Keeps `facts` of the variant file at `path` (in the disk cache under the variant's
    /// original, `originalKey`); a variant that was not stored keeps nothing.
    func keep(_ facts: ImageFacts, for variantKey: String, path: String?, originalKey: String) async {
        guard let path, let version = StoredFileVersion(path: path)?.fingerprint else { return }
        let entry = Entry(version: version, facts: facts)
        _ = memory.set(entry, for: variantKey, cost: 1024)
        let disk = self.disk
        // Not synced to the disk: facts lost to a crash, or cut short, are computed again.
        _ = try? await blocking.run {
            try disk.store(JSONEncoder().encode(entry), for: Self.key(variantKey), kind: .variant(of: originalKey), durable: false)
        }
    }

    /// The disk cache key of a variant's facts.
    static func key(_ variantKey: String) -> String { variantKey + ";facts" }
}

extension StoredFileVersion {
    /// The version written as text, to store beside what was computed from the file.
    var fingerprint: String { "\(device):\(inode):\(size):\(modifiedSeconds).\(modifiedNanoseconds)" }
}
