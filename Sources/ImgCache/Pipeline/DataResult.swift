import Foundation

/// Bytes fetched through the pipeline's cache, with whether they changed since the stored copy.
public struct DataResult: Sendable {
    public let url: URL
    public let data: Data
    /// False when the bytes are the stored copy's: fresh in the cache, confirmed by a 304, or
    /// downloaded again with identical bytes (the check a server without validators allows).
    public let changed: Bool
    public let cacheOutcome: CacheOutcome
    public let contentType: String?
}
