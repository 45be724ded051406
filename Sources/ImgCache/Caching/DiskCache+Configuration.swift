import Foundation

extension DiskCache {
    /// Where a disk cache lives and how it trims, syncs and records reads. Each property states its default.
    public struct Configuration: Sendable, Equatable {
        /// The cache folder, created with mode 0700 when missing; an existing folder must be empty
        /// or an imgcache cache (see `DiskCache`). The root itself may be a symlink; nothing inside
        /// it may be. Default `Configuration.defaultRoot()`.
        public var root: URL
        /// Bytes the stored files may take before a sweep trims them. Default 256 MiB.
        public var sizeLimit: Int
        /// A sweep trims the least recently accessed entries until the total is at most this share of
        /// `sizeLimit`, so that it does not run again at the next store. Default 0.7.
        public var lowWaterFraction: Double
        /// Entries not accessed for this long are removed by `removeExpired()` and `sweep()`; nil keeps
        /// them until evicted. Default 7 days.
        public var timeToLive: TimeInterval?
        /// Whether a power cut can never leave an entry whose file is partial: each file is flushed
        /// to disk before it is renamed into place (one fsync a store; a second when it replaces a
        /// file of the same name). The index commits with SQLite's `synchronous = NORMAL` in WAL
        /// mode either way, so a power cut may lose the most recent entries (they become misses),
        /// never corrupt the index or an entry. Without it a store is still atomic and survives a
        /// killed process, but a power cut may leave a recent entry's file empty or partial.
        /// Default true.
        public var syncWrites: Bool
        /// Whether `store` runs `sweep()` when the total goes over `sizeLimit`. Default true.
        public var sweepsWhenOverLimit: Bool
        /// Reads stamp entries in memory; the stamps are written in one transaction once this many are
        /// pending, and by `sweep`, `entries`, `stats`, `verify` and `close`. Default 64.
        public var accessStampFlushCount: Int
        /// ... or at the first read or store this long after the oldest pending stamp. Stamps still
        /// pending when a process is killed are lost (the entries look older). Default 5 seconds.
        public var accessStampFlushInterval: TimeInterval
        /// How long an operation waits for another process's index lock before failing with
        /// `ImgCacheError.cacheIndex`. Default 10 seconds.
        public var lockTimeout: TimeInterval

        /// A configuration with each setting at the default its property states unless given.
        public init(
            root: URL = Configuration.defaultRoot(),
            sizeLimit: Int = 256 * 1024 * 1024,
            lowWaterFraction: Double = 0.7,
            timeToLive: TimeInterval? = 7 * 24 * 3600,
            syncWrites: Bool = true,
            sweepsWhenOverLimit: Bool = true,
            accessStampFlushCount: Int = 64,
            accessStampFlushInterval: TimeInterval = 5,
            lockTimeout: TimeInterval = 10
        ) {
            self.root = root
            self.sizeLimit = sizeLimit
            self.lowWaterFraction = lowWaterFraction
            self.timeToLive = timeToLive
            self.syncWrites = syncWrites
            self.sweepsWhenOverLimit = sweepsWhenOverLimit
            self.accessStampFlushCount = accessStampFlushCount
            self.accessStampFlushInterval = accessStampFlushInterval
            self.lockTimeout = lockTimeout
        }

        /// The default cache folder: `$IMGCACHE_DIR` when set, else `$XDG_CACHE_HOME/imgcache` when that
        /// is an absolute path, else `~/.cache/imgcache`.
        public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
            if let folder = environment["IMGCACHE_DIR"], !folder.isEmpty {
                return URL(fileURLWithPath: folder, isDirectory: true)
            }
            if let cacheHome = environment["XDG_CACHE_HOME"], cacheHome.hasPrefix("/") {
                return URL(fileURLWithPath: cacheHome, isDirectory: true).appendingPathComponent("imgcache")
            }
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/imgcache")
        }

        /// Throws `invalidArgument` for a value outside its range.
        func validate() throws {
            if sizeLimit < 0 { throw ImgCacheError.invalidArgument("cache size limit must not be negative") }
            if !(0...1).contains(lowWaterFraction) {
                throw ImgCacheError.invalidArgument("low-water fraction must be between 0 and 1")
            }
            if let timeToLive, !(timeToLive.isFinite && timeToLive > 0) {
                throw ImgCacheError.invalidArgument("time to live must be positive and finite")
            }
            if accessStampFlushCount < 1 { throw ImgCacheError.invalidArgument("access stamp flush count must be at least 1") }
            for interval in [accessStampFlushInterval, lockTimeout] where !(interval.isFinite && (0...86_400).contains(interval)) {
                throw ImgCacheError.invalidArgument("cache intervals must be from 0 to 86400 s")
            }
        }
    }
}
