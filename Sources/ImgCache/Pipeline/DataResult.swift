import Foundation

/// Bytes fetched through the pipeline's cache, with whether they changed since the stored copy.
public struct DataResult: Sendable {
    /// The URL asked for.
    public let url: URL
    /// The bytes: the stored copy's or the ones just downloaded.
    public let data: Data
    /// False when the bytes are the stored copy's: fresh in the cache, confirmed by a 304, or
    /// downloaded again with identical bytes (the check a server without validators allows).
    public let changed: Bool
    /// Where the bytes came from: `.disk`, `.shared`, `.revalidated` or `.network`.
    public let cacheOutcome: CacheOutcome
    /// The `Content-Type` stored with the bytes (as the server sent it), if any.
    public let contentType: String?
}
