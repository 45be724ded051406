import Foundation

/// An original ready to decode: where its bytes are and how they were obtained.
struct OriginalFetch: Sendable {
    /// The stored file, held open (see `OpenedFile`), or the downloaded bytes when not stored.
    let source: ImageSource
    /// Keeps the stored file readable while the original is decoded.
    let file: OpenedFile?
    /// The disk cache entry, nil when not stored.
    let entry: CacheEntry?
    /// When the original stops being fresh.
    let expiresAt: Date?
    /// `.disk` (fresh in the cache), `.shared` (fresh in Redis), `.revalidated` (304) or
    /// `.network` (downloaded).
    let outcome: CacheOutcome
    /// True when the bytes differ from the copy stored before (or there was none).
    let changed: Bool
}

extension ImagePipeline {
    /// The original at `url`: the stored copy while fresh; else, with a Redis tier, a fresh copy
    /// from Redis (stored locally), or the lease to download it while other instances wait for
    /// the value (see `sharedValue`); else a conditional request with the stored validators
    /// (from Redis when there is no local copy), where a 304 keeps the stored bytes and refreshes
    /// their expiry; else a download, checked by `accept` before it is stored locally and in Redis.
    func fetchOriginal(_ url: URL, accept: @Sendable (Data) throws -> Void) async throws -> OriginalFetch {
        let key = CacheKey.originalKey(for: url)
        let diskCache = self.diskCache
        // The stored file is opened with its lookup: gone by then (another process's sweep), it is a miss.
        var (stored, opened) = try await blocking.run { () -> (CacheEntry?, OpenedFile?) in
            guard let entry = try diskCache.entry(for: key) else { return (nil, nil) }
            guard let file = OpenedFile(entry.fileURL) else {
                _ = try diskCache.remove(key: key, cascadeVariants: true)
                return (nil, nil)
            }
            return (entry, file)
        }
        if let stored, let opened, !stored.isExpired() {
            return OriginalFetch(
                source: opened.source, file: opened, entry: stored, expiresAt: stored.expiresAt, outcome: .disk,
                changed: false)
        }
        guard let redis = redisTier(for: url) else {
            return try await download(url, key, stored, opened, accept: accept)
        }
        let shared = await sharedValue(RedisTier.originalKey(key), redis)
        do {
            var fetch: OriginalFetch
            if let value = shared.value, (try? accept(value.payload)) != nil, !value.isExpired() {
                fetch = try await adopt(value, key, stored, opened)
            } else {
                if let value = shared.value, stored == nil, (try? accept(value.payload)) != nil {
                    // A stale copy with its validators: revalidated as if it had been stored here.
                    let adopted = try await adopt(value, key, nil, nil)
                    (stored, opened) = (adopted.entry, adopted.file)
                }
                fetch = try await download(url, key, stored, opened, accept: accept)
            }
            if let token = shared.lease { await releaseLease(RedisTier.originalKey(key), token, redis) }
            return fetch
        } catch {
            if let token = shared.lease { await releaseLease(RedisTier.originalKey(key), token, redis) }
            throw error
        }
    }

    /// `fetchOriginal` past the caches: a conditional request when there is a stored copy, else a
    /// download; what arrives is stored locally and, with a Redis tier, in Redis.
    private func download(
        _ url: URL, _ key: String, _ stored: CacheEntry?, _ opened: OpenedFile?, accept: @Sendable (Data) throws -> Void
    ) async throws -> OriginalFetch {
        let diskCache = self.diskCache
        let validators = HTTPValidators(etag: stored?.etag, lastModified: stored?.lastModified)
        let loader = self.loader
        let response = try await loads.run { try await loader.load(DataRequest(url: url, validators: validators)) }
        // A body in a file not moved into the cache goes when this fetch ends (its mapped bytes
        // stay readable), not whenever the last reference to the response does.
        defer { response.spilledBody?.removeFile() }
        if response.isNotModified {
            guard let stored else {
                throw ImgCacheError.network(url: key, detail: "304 Not Modified to a request without validators")
            }
            let refreshed = try await blocking.run {
                try diskCache.refresh(
                    for: key, expiresAt: response.freshness.expires, etag: response.validators.etag,
                    lastModified: response.validators.lastModified)
            } ?? stored
            if let redis = redisTier(for: url), let bytes = try? opened?.read() {
                await share(bytes, refreshed, under: RedisTier.originalKey(key), redis)
            }
            return OriginalFetch(
                source: opened?.source ?? .file(path: refreshed.fileURL.path), file: opened, entry: refreshed,
                expiresAt: response.freshness.expires, outcome: .revalidated, changed: false)
        }
        try accept(response.data)
        // Bytes the cache could never hold (over its whole size limit) are served without storing,
        // as if the server had said no-store.
        let keeps = !response.freshness.isNoStore && response.data.count <= diskCache.configuration.sizeLimit
        let (changed, entry, file) = try await blocking.run { () -> (Bool, CacheEntry?, OpenedFile?) in
            let changed = try !Self.holds(stored, opened, response)
            if stored != nil && (changed || !keeps) {
                // New bytes, or none to keep: variants rendered from the old ones go too.
                _ = try diskCache.remove(key: key, cascadeVariants: true)
            }
            guard keeps else { return (changed, nil, nil) }
            let entry: CacheEntry
            if let spilled = response.spilledBody, Self.isFile(spilled.path, in: diskCache.temporaryFolder) {
                // Written to the cache's tmp/ as it arrived: moved into place, not copied.
                entry = try diskCache.store(
                    movingFileAt: spilled.path, byteCount: spilled.byteCount, for: key, contentType: response.contentType,
                    etag: response.validators.etag, lastModified: response.validators.lastModified,
                    expiresAt: response.freshness.expires)
                spilled.handOver()
            } else {
                entry = try diskCache.store(
                    response.data, for: key, kind: .original, contentType: response.contentType,
                    etag: response.validators.etag, lastModified: response.validators.lastModified,
                    expiresAt: response.freshness.expires)
            }
            return (changed, entry, OpenedFile(entry.fileURL))
        }
        guard let entry else {
            return OriginalFetch(source: .data(response.data), file: nil, entry: nil, expiresAt: nil, outcome: .network, changed: changed)
        }
        if let redis = redisTier(for: url) { await share(response.data, entry, under: RedisTier.originalKey(key), redis) }
        // Read from the stored file, held open; from the downloaded bytes if a sweep already took it.
        return OriginalFetch(
            source: file?.source ?? .data(response.data), file: file, entry: entry, expiresAt: response.freshness.expires,
            outcome: .network, changed: changed)
    }

    /// True when the stored original (`entry`, its file held open) holds exactly the downloaded
    /// bytes (sizes compared first; a body written to a file is compared file to file); false when
    /// there is none.
    static func holds(_ entry: CacheEntry?, _ file: OpenedFile?, _ response: DataResponse) throws -> Bool {
        guard let entry, let file, entry.byteCount == response.data.count else { return false }
        if let spilled = response.spilledBody { return try file.hasSameBytes(asFileAt: spilled.path) }
        return try file.read() == response.data
    }

    /// True when `path` names a file directly in `folder`.
    private static func isFile(_ path: String, in folder: URL) -> Bool {
        URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path
    }
}
