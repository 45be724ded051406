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

extension ImagePipeline {
    /// The bytes at `url` (a JSON feed a widget polls, say), through the disk cache and HTTP
    /// revalidation, saying whether they changed since the last stored copy so that a caller can
    /// skip work when nothing did. The first fetch of a URL counts as changed.
    public func data(for url: URL) async throws -> DataResult {
        try Self.checkScheme(url)
        let fetched = try await originals.value(for: CacheKey.originalKey(for: url)) { [self] in
            try await fetchOriginal(url) { _ in }
        }
        let data: Data
        switch fetched.source {
        case .data(let bytes):
            data = bytes
        case .file(let path):
            data = try await blocking.run { try Self.readStoredFile(URL(fileURLWithPath: path)) }
        }
        return DataResult(
            url: url, data: data, changed: fetched.changed, cacheOutcome: fetched.outcome,
            contentType: fetched.entry?.contentType)
    }
}
