import Foundation
import Synchronization

/// Where the stored variants this pipeline found or rendered lately are, so that the next request
/// for one costs a `stat` of its file rather than a trip through the disk cache (a hop to a pool
/// thread, an index lookup, a read of the file's headers): what a server answering the same URLs
/// all day needs.
///
/// A remembered variant is served while it is fresh (its original's expiry) and its file is the
/// one remembered (same device, inode, size and modification time): a file another process
/// removed or replaced is looked up again. Its reads are stamped in the disk cache as lookups
/// would have been, in batches: at the first read the disk cache's `accessStampFlushInterval`
/// after the oldest pending one, or once 1,024 variants are pending; a batch is stamped with the
/// time of the read that made it due (a variant read many times meanwhile is stamped once).
///
/// Holds under 1 KB per variant (its key, file path, format and sizes; its file URL is made again
/// when it is read, which keeps about 400 bytes less a variant), for at most `limit` variants,
/// least recently used forgotten first.
final class RememberedVariants: Sendable {
    /// A stored variant as it was when remembered.
    private struct Entry: Sendable {
        let format: ImageFormat
        let pixelSize: PixelSize
        let frameCount: Int
        let byteCount: Int
        let path: String
        let expiresAt: Date?
        let file: StoredFileVersion
    }

    /// Reads not yet stamped in the disk cache.
    private struct PendingReads {
        var keys: Set<String> = []
        var oldest: Double?
    }

    private let entries: MemoryCache<String, Entry>
    private let pending = Mutex(PendingReads())
    private let disk: DiskCache
    private let blocking: BlockingPool
    /// Variants pending that make a batch due.
    private static let batchCount = 1024
    private let flushInterval: Double

    /// Remembers up to `limit` variants stored in `disk`, whose read stamps are written on `blocking`.
    init(limit: Int, disk: DiskCache, blocking: BlockingPool) {
        entries = MemoryCache(costLimit: limit, maxEntryShare: 1)
        self.disk = disk
        self.blocking = blocking
        flushInterval = disk.configuration.accessStampFlushInterval
    }

    /// Remembers `variant` under `key` when it is stored in a file that is there now.
    func remember(_ variant: PreparedVariant, for key: String) {
        guard let fileURL = variant.fileURL else { return }
        let path = fileURL.path
        guard let file = StoredFileVersion(path: path) else { return }
        let entry = Entry(
            format: variant.format, pixelSize: variant.pixelSize, frameCount: variant.frameCount,
            byteCount: variant.byteCount, path: path, expiresAt: variant.expiresAt, file: file)
        entries.set(entry, for: key, cost: 1)
    }

    /// The variant remembered under `key`, outcome `.disk`, when it is fresh at `date` and its file
    /// is unchanged; nil otherwise (and it is forgotten). Never waits: one `stat`, and the read
    /// stamp handed to a pool thread when a batch is due.
    func variant(for key: String, at date: Date = Date()) -> PreparedVariant? {
        guard let entry = entries.value(for: key), isUsable(entry, key: key, at: date) else { return nil }
        return PreparedVariant(
            format: entry.format, pixelSize: entry.pixelSize, frameCount: entry.frameCount, byteCount: entry.byteCount,
            fileURL: URL(fileURLWithPath: entry.path, isDirectory: false), unstoredData: nil, source: nil, cacheOutcome: .disk, timings: ImageTimings(),
            expiresAt: entry.expiresAt, image: nil)
    }

    /// True when the variant remembered under `key` is stored at `path`, was remembered at
    /// `version`, is fresh at `date` and its file is still at that version (one `stat`); its
    /// read is then stamped as `variant(for:at:)` stamps it. False otherwise (and a variant that
    /// is stale or whose file changed is forgotten).
    func isCurrent(_ key: String, path: String, version: StoredFileVersion, at date: Date = Date()) -> Bool {
        guard let entry = entries.value(for: key), entry.path == path, entry.file == version else { return false }
        return isUsable(entry, key: key, at: date)
    }

    /// Whether `entry` is fresh at `date` and its file unchanged: then its read is stamped;
    /// otherwise it is forgotten.
    private func isUsable(_ entry: Entry, key: String, at date: Date) -> Bool {
        guard !(entry.expiresAt.map { $0 <= date } ?? false), StoredFileVersion(path: entry.path) == entry.file else {
            entries.removeValue(for: key)
            return false
        }
        recordRead(of: key, at: date.timeIntervalSince1970)
        return true
    }

    func forget(_ key: String) {
        entries.removeValue(for: key)
    }

    private func recordRead(of key: String, at time: Double) {
        let due: [String]? = pending.withLock { pending in
            pending.keys.insert(key)
            let oldest = pending.oldest ?? time
            pending.oldest = oldest
            guard pending.keys.count >= Self.batchCount || time - oldest >= flushInterval else { return nil }
            defer { pending = PendingReads() }
            return Array(pending.keys)
        }
        guard let due else { return }
        let disk = self.disk
        let blocking = self.blocking
        // A lost stamp only makes an entry look older to the next sweep.
        Task { _ = try? await blocking.run { try disk.recordAccesses(to: due, at: time) } }
    }
}
