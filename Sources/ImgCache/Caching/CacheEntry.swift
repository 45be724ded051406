import Foundation

/// What the disk cache knows about one stored file: its key, where its bytes are, and the HTTP
/// metadata stored with it.
public struct CacheEntry: Sendable, Hashable {
    /// Whether an entry is a downloaded original or a variant rendered from one.
    public enum Kind: Sendable, Hashable {
        /// Bytes as downloaded; the key is the URL string.
        case original
        /// Bytes rendered from the original whose key is `originalKey`.
        case variant(of: String)
    }

    /// The key the entry was stored under.
    public let key: String
    /// The name of the file under `<root>/data/`.
    public let fileName: String
    /// The file holding the bytes; it is complete whenever the entry is returned.
    public let fileURL: URL
    /// Whether the entry is an original or a variant, and if a variant, of which original.
    public let kind: Kind
    /// Size of the file in bytes.
    public let byteCount: Int
    /// The Content-Type stored with the bytes, if any.
    public let contentType: String?
    /// The HTTP ETag validator, if any.
    public let etag: String?
    /// The HTTP Last-Modified validator (the header's text), if any.
    public let lastModified: String?
    /// When the stored response stops being fresh (HTTP freshness). A read still returns an entry
    /// past this date: the caller revalidates it and calls `DiskCache.refresh(for:...)` on a 304.
    public let expiresAt: Date?
    /// When these bytes were stored.
    public let createdAt: Date
    /// The last access recorded in the index (reads are recorded in batches).
    public let lastAccessAt: Date

    /// True when `expiresAt` is set and not after `date`.
    public func isExpired(at date: Date = Date()) -> Bool {
        expiresAt.map { $0 <= date } ?? false
    }
}
