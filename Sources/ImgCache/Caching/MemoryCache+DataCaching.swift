import Foundation

/// A memory cache of encoded bytes as a tier of the pipeline (for a service that wants its hot
/// originals or variants served without a disk read, say): copies are kept in memory at the cost
/// of their bytes, within `costLimit`, least recently used first out.
extension MemoryCache: DataCaching where Key == String, Value == CachedData {
    public var isShared: Bool { false }

    public func cachedData(for key: String) -> CachedData? {
        value(for: key)
    }

    /// Keeps the bytes in memory (read from their file when they are in one); nil when they are
    /// over the entry share of `costLimit`.
    @discardableResult
    public func storeData(_ data: CachedData, for key: String, kind: CacheEntry.Kind) throws -> CachedData? {
        let copy = CachedData(
            data: try data.data(), contentType: data.contentType, etag: data.etag, lastModified: data.lastModified,
            expiresAt: data.expiresAt)
        return set(copy, for: key, cost: copy.byteCount) ? copy : nil
    }

    public func removeData(for key: String) {
        removeValue(for: key)
    }
}
