import Foundation

/// An original ready to decode: where its bytes are and how they were obtained.
struct OriginalFetch: Sendable {
    /// The stored file, or the downloaded bytes when the server forbade storing them.
    let source: ImageSource
    /// The disk cache entry, nil when not stored.
    let entry: CacheEntry?
    /// When the original stops being fresh.
    let expiresAt: Date?
    /// `.disk` (fresh in the cache), `.revalidated` (304) or `.network` (downloaded).
    let outcome: CacheOutcome
    /// True when the bytes differ from the copy stored before (or there was none).
    let changed: Bool
}

extension ImagePipeline {
    /// The original at `url`: the stored copy while fresh; else a conditional request with the
    /// stored validators, where a 304 keeps the stored bytes and refreshes their expiry; else a
    /// download, checked by `accept` before it is stored.
    func fetchOriginal(_ url: URL, accept: @Sendable (Data) throws -> Void) async throws -> OriginalFetch {
        let key = CacheKey.originalKey(for: url)
        let diskCache = self.diskCache
        let stored = try await blocking.run { try diskCache.entry(for: key) }
        if let stored, !stored.isExpired() {
            return OriginalFetch(
                source: .file(path: stored.fileURL.path), entry: stored, expiresAt: stored.expiresAt, outcome: .disk,
                changed: false)
        }
        let validators = HTTPValidators(etag: stored?.etag, lastModified: stored?.lastModified)
        let loader = self.loader
        let response = try await loads.run { try await loader.load(DataRequest(url: url, validators: validators)) }
        if response.isNotModified {
            guard let stored else {
                throw ImgCacheError.network(url: key, detail: "304 Not Modified to a request without validators")
            }
            let refreshed = try await blocking.run {
                try diskCache.refresh(
                    for: key, expiresAt: response.freshness.expires, etag: response.validators.etag,
                    lastModified: response.validators.lastModified)
            } ?? stored
            return OriginalFetch(
                source: .file(path: refreshed.fileURL.path), entry: refreshed, expiresAt: response.freshness.expires,
                outcome: .revalidated, changed: false)
        }
        try accept(response.data)
        // Bytes the cache could never hold (over its whole size limit) are served without storing,
        // as if the server had said no-store.
        let keeps = !response.freshness.isNoStore && response.data.count <= diskCache.configuration.sizeLimit
        let (changed, entry) = try await blocking.run { () -> (Bool, CacheEntry?) in
            let changed = try stored.map { try !Self.holds($0, response.data) } ?? true
            if stored != nil && (changed || !keeps) {
                // New bytes, or none to keep: variants rendered from the old ones go too.
                _ = try diskCache.remove(key: key, cascadeVariants: true)
            }
            guard keeps else { return (changed, nil) }
            let entry = try diskCache.store(
                response.data, for: key, kind: .original, contentType: response.contentType,
                etag: response.validators.etag, lastModified: response.validators.lastModified,
                expiresAt: response.freshness.expires)
            return (changed, entry)
        }
        guard let entry else {
            return OriginalFetch(source: .data(response.data), entry: nil, expiresAt: nil, outcome: .network, changed: changed)
        }
        return OriginalFetch(
            source: .file(path: entry.fileURL.path), entry: entry, expiresAt: response.freshness.expires,
            outcome: .network, changed: changed)
    }

    /// True when the stored file of `entry` holds exactly `data` (sizes compared first).
    static func holds(_ entry: CacheEntry, _ data: Data) throws -> Bool {
        guard entry.byteCount == data.count else { return false }
        return try readStoredFile(entry.fileURL) == data
    }
}
