import Foundation

/// `--cache-dir DIR`, the cache folder of the verbs that use the disk cache (nil: the default,
/// see `DiskCache.Configuration.defaultRoot`). An empty value, as an unset shell variable gives,
/// is a usage error rather than the current folder.
enum CacheDirectoryOption {
    static func value(_ arguments: inout ArgumentList) throws -> URL? {
        guard let folder = try arguments.value("--cache-dir") else { return nil }
        guard !folder.isEmpty else {
            throw UsageError("--cache-dir is empty (an unset variable?): name the cache folder, or leave the option out for the default")
        }
        return URL(fileURLWithPath: folder, isDirectory: true)
    }
}
