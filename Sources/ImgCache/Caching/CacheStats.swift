import Foundation

/// A summary of a disk cache's index.
public struct CacheStats: Sendable, Equatable {
    public var entryCount: Int
    /// Bytes of all stored files.
    public var totalBytes: Int
    public var originalCount: Int
    public var variantCount: Int
    /// Entries whose `expiresAt` has passed (kept for revalidation until evicted).
    public var expiredCount: Int
    /// The configured size limit of the instance that computed these figures.
    public var sizeLimit: Int
    /// The least and most recent access stamps, nil when the cache is empty.
    public var oldestAccess: Date?
    public var newestAccess: Date?
}
