import Foundation

/// The disk cache as the pipeline's first tier: copies are handed over as their files, held open
/// from the lookup on (another process's sweep cannot take them away meanwhile).
extension DiskCache: DataCaching {
    public var isShared: Bool { false }

    /// The entry under `key` with its file held open; nil on a miss, or when the file went since
    /// the lookup (the entry, and for an original its variants, are then removed).
    public func cachedData(for key: String) throws -> CachedData? {
        guard let entry = try entry(for: key) else { return nil }
        guard let file = OpenFile.opening(entry.fileURL) else {
            try removeData(for: key)
            return nil
        }
        return CachedData(entry: entry, file: file)
    }

    /// Stores the bytes (a variant's file is named after the format its bytes start with) and
    /// returns the stored file held open; nil when the bytes alone are over `sizeLimit` or the
    /// new file went before it could be opened.
    @discardableResult
    public func storeData(_ data: CachedData, for key: String, kind: CacheEntry.Kind) throws -> CachedData? {
        guard data.byteCount <= configuration.sizeLimit else { return nil }
        let bytes = try data.data()
        var format: ImageFormat?
        if case .variant = kind { format = try? ImageFormat.sniff(bytes.prefix(ImageFormat.signatureLength)) }
        let entry = try store(
            bytes, for: key, kind: kind, format: format, contentType: data.contentType, etag: data.etag,
            lastModified: data.lastModified, expiresAt: data.expiresAt)
        return OpenFile.opening(entry.fileURL).map { CachedData(entry: entry, file: $0) }
    }

    /// Records the new expiry and validators in the index without rewriting the file; nil when
    /// `key` is not stored.
    @discardableResult
    public func refreshData(_ data: CachedData, for key: String, kind: CacheEntry.Kind) throws -> CachedData? {
        guard let entry = try refresh(for: key, expiresAt: data.expiresAt, etag: data.etag, lastModified: data.lastModified),
              let file = OpenFile.opening(entry.fileURL)
        else { return nil }
        return CachedData(entry: entry, file: file)
    }

    /// Removes the entry and, for an original, every variant stored from it.
    public func removeData(for key: String) throws {
        try remove(key: key, cascadeVariants: true)
    }

    /// Stores a download that was written to a file of this cache's tmp/ folder as it arrived by
    /// moving that file into place; returns the stored file held open (nil when it went before it
    /// could be opened).
    func storeData(movingFileAt path: String, byteCount: Int, metadata: CachedData, for key: String) throws -> CachedData? {
        let entry = try store(
            movingFileAt: path, byteCount: byteCount, for: key, contentType: metadata.contentType, etag: metadata.etag,
            lastModified: metadata.lastModified, expiresAt: metadata.expiresAt)
        return OpenFile.opening(entry.fileURL).map { CachedData(entry: entry, file: $0) }
    }
}

extension CachedData {
    /// The file of a disk cache entry, held open.
    init(entry: CacheEntry, file: OpenFile) {
        self.init(
            file: file, fileURL: entry.fileURL, byteCount: entry.byteCount, contentType: entry.contentType,
            etag: entry.etag, lastModified: entry.lastModified, expiresAt: entry.expiresAt)
    }
}
