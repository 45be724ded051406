import Foundation
import ImgCache

/// `--redis URL`, else `$IMGCACHE_REDIS`: the shared Redis tier of the verbs that fetch and of
/// `cache stats`.
enum RedisOption {
    static let help = """
          --redis URL         share originals and variants through Redis, redis://[:password@]host:port/db
                              (default $IMGCACHE_REDIS; none when unset): looked up after the disk cache,
                              written after each download, one download of a URL across the instances
        """

    /// The tier's configuration from `option` (the value of `--redis`), else from
    /// `$IMGCACHE_REDIS` when it is set and not empty; nil when neither is. Throws
    /// `invalidArgument` (exit 2) for a malformed URL.
    static func configuration(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> RedisConfiguration?
    {
        let text = option ?? environment["IMGCACHE_REDIS"].flatMap { $0.isEmpty ? nil : $0 }
        return try text.map { try RedisConfiguration(url: $0) }
    }

    /// Prints a warning the pipeline recovered from on standard error.
    static let log: @Sendable (String) -> Void = { message in CommandLineTool.printError("imgcache: \(message)") }
}
