import Foundation

/// `--cache-dir DIR`, the cache folder of the verbs that use the disk cache (nil: the default,
/// see `DiskCache.Configuration.defaultRoot`), and `--cache-size-limit SIZE`, the size the cache
/// is swept back under (nil: the default, 256 MB). An empty folder, as an unset shell variable
/// gives, is a usage error rather than the current folder.
enum CacheDirectoryOption {
    static func value(_ arguments: inout ArgumentList) throws -> URL? {
        guard let folder = try arguments.value("--cache-dir") else { return nil }
        guard !folder.isEmpty else {
            throw UsageError("--cache-dir is empty (an unset variable?): name the cache folder, or leave the option out for the default")
        }
        return URL(fileURLWithPath: folder, isDirectory: true)
    }

    /// The help line of `--cache-size-limit`, shared by the verbs that use the disk cache.
    static let sizeLimitHelp = OptionHelp("--cache-size-limit", "SIZE", .text, """
        sweep the disk cache, least recently used first, once its files pass
        this size, e.g. 2GB (default 256MB; 1 MB = 2^20 B)
        """)

    /// `SIZE` of `--cache-size-limit`, or `IMGCACHE_CACHE_SIZE_LIMIT` for serve.
    static func sizeLimit(_ text: String?) throws -> Int? {
        guard let text else { return nil }
        guard let bytes = parseByteCount(text) else {
            throw UsageError("--cache-size-limit expects a byte count such as 2GB, got '\(text)'")
        }
        return bytes
    }
}
