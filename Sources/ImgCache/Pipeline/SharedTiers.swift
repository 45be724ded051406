import Foundation

/// The tiers after the disk cache (the Redis tier, then `Configuration.tiers`), with threads of
/// their own: a tier's waits (Redis round trips, an object store's requests) never hold a thread
/// that decodes or runs SQLite. Writes are best effort: the request has its bytes already, so a
/// tier that throws is skipped.
struct SharedTiers: Sendable {
    /// In lookup order.
    let tiers: [any DataCaching]
    /// Runs every call to a tier.
    let io: BlockingPool

    /// The tiers that may hold what comes from `url`: none for a local file, whose path means
    /// nothing on another host.
    func tiers(for url: URL) -> [any DataCaching] {
        url.isFileURL ? [] : tiers
    }

    /// What `tier` holds under `key`; nil on a miss, when the tier throws, or when the caller is
    /// cancelled.
    func lookup(_ key: String, in tier: any DataCaching) async -> CachedData? {
        (try? await io.run { try tier.cachedData(for: key) }) ?? nil
    }

    /// Writes `copy` under `key` to every tier that may hold what comes from `url`.
    func store(_ copy: CachedData, for key: String, kind: CacheEntry.Kind, from url: URL) async {
        let tiers = self.tiers(for: url)
        guard !tiers.isEmpty else { return }
        _ = try? await io.run { for tier in tiers { _ = try? tier.storeData(copy, for: key, kind: kind) } }
    }

    /// Tells every tier that may hold what comes from `url` that `copy` was confirmed unchanged.
    func refresh(_ copy: CachedData, for key: String, kind: CacheEntry.Kind, from url: URL) async {
        let tiers = self.tiers(for: url)
        guard !tiers.isEmpty else { return }
        _ = try? await io.run { for tier in tiers { _ = try? tier.refreshData(copy, for: key, kind: kind) } }
    }

    /// Removes `key` from `tiers` (default: every tier) where it still holds the damaged `copy`.
    func remove(_ key: String, ifHolding copy: CachedData, from tiers: [any DataCaching]? = nil) async {
        let tiers = tiers ?? self.tiers
        guard !tiers.isEmpty else { return }
        _ = try? await io.run { for tier in tiers { try? tier.removeData(for: key, ifHolding: copy) } }
    }
}
