/// One tier of the caches an `ImagePipeline` looks originals and variants up in: the seam a
/// service adds its own tier at (an object store, say) without touching the pipeline. The disk
/// cache, the memory data cache and the shared Redis tier implement it.
///
/// Keys are the pipeline's cache keys: an original's (its URL, after the key policy, or the
/// caller's own key) or a variant's (the original's key and every option that changes its bytes,
/// after `#imgcache-variant:`). The pipeline calls these methods on its own threads, which may
/// block (a tier may wait for a disk or a network). A tier that cannot answer should return nil
/// (a miss) rather than throw: a throw fails the request.
public protocol DataCaching: Sendable {
    /// True for a tier that several hosts share (Redis, an object store): it is skipped for local
    /// files, whose paths mean nothing elsewhere, and its hits are reported as `.shared`.
    var isShared: Bool { get }

    /// The copy stored under `key`, fresh or stale (see `CachedData.isExpired`); nil on a miss.
    func cachedData(for key: String) throws -> CachedData?

    /// Stores `data` under `key`, replacing what was there. `kind` says whether it is an
    /// original or a variant of which original (a tier may remove the variants with their
    /// original). Returns the copy as the tier now holds it (a local file, for a disk), or nil
    /// when the tier declined it (over its limits).
    @discardableResult
    func storeData(_ data: CachedData, for key: String, kind: CacheEntry.Kind) throws -> CachedData?

    /// The copy under `key` was confirmed unchanged by its origin (an HTTP 304): records the new
    /// expiry and validators of `data`, which holds its bytes. Returns the copy as now held, nil
    /// when the tier does not hold it. Default: `storeData(data, for: key, kind: kind)`.
    @discardableResult
    func refreshData(_ data: CachedData, for key: String, kind: CacheEntry.Kind) throws -> CachedData?

    /// Removes what is stored under `key`; for an original, a tier may also remove the variants
    /// made from it.
    func removeData(for key: String) throws

    /// Removes what is stored under `key` only while it holds the bytes of `copy` (a copy found
    /// damaged: it does not decode), so that a good copy written meanwhile survives. Default: looks
    /// the key up and removes it when its bytes are `copy`'s (not atomic; a shared tier should
    /// compare and delete in one step).
    func removeData(for key: String, ifHolding copy: CachedData) throws
}

extension DataCaching {
    public func removeData(for key: String, ifHolding copy: CachedData) throws {
        guard let current = try cachedData(for: key), try current.hasSameBytes(as: copy) else { return }
        try removeData(for: key)
    }

    @discardableResult
    public func refreshData(_ data: CachedData, for key: String, kind: CacheEntry.Kind) throws -> CachedData? {
        try storeData(data, for: key, kind: kind)
    }
}
