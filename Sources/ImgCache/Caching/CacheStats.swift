import Foundation

/// A summary of a disk cache's index.
public struct CacheStats: Sendable, Equatable {
    /// Entries in the index: originals and variants.
    public var entryCount: Int
    /// Bytes of all stored files.
    public var totalBytes: Int
    /// Entries holding downloaded originals.
    public var originalCount: Int
    /// Entries holding variants rendered from an original.
    public var variantCount: Int
    /// Entries whose `expiresAt` has passed (kept for revalidation until evicted).
    public var expiredCount: Int
    /// The configured size limit of the instance that computed these figures.
    public var sizeLimit: Int
    /// The least recent access stamp, nil when the cache is empty.
    public var oldestAccess: Date?
    /// The most recent access stamp, nil when the cache is empty.
    public var newestAccess: Date?
}
