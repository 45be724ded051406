import Foundation
import ImgCache

/// `--redis URL`, else `$IMGCACHE_REDIS`: the shared Redis tier of the verbs that fetch and of
/// `cache stats`, its values authenticated with `$IMGCACHE_REDIS_SECRET` when that is set.
enum RedisOption {
    static let options: [OptionHelp] = [
        OptionHelp("--redis", "URL", .text, """
            share originals and variants through Redis, redis://[:password@]host:port/db,
            a Redis Cluster, redis-cluster://[:password@]host:port[,host:port...],
            or the master that Redis Sentinel names (found again after a failover),
            redis-sentinel://[:password@]host:port[,host:port...]/MASTER_NAME[/db]
            (sentinel port 26379 by default; the password is the master's)
            (default $IMGCACHE_REDIS; none when unset): looked up after the disk cache,
            written after each download, one download of a URL across the instances;
            $IMGCACHE_REDIS_SECRET (at least 32 hex digits, the same on every instance)
            authenticates every value, else anyone who can write to Redis chooses them
            """),
    ]

    /// The tier's configuration from `option` (the value of `--redis`), else from
    /// `$IMGCACHE_REDIS` when it is set and not empty; nil when neither is. With
    /// `$IMGCACHE_REDIS_SECRET` set, its secret is that variable's hex digits (either case,
    /// white space around them ignored; at least 32 digits, 16 bytes: `openssl rand -hex 32`
    /// makes one). Throws `invalidArgument` (exit 2) for a malformed URL or secret.
    static func configuration(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> RedisConfiguration?
    {
        guard let text = option ?? environment["IMGCACHE_REDIS"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        var configuration = try RedisConfiguration(url: text)
        if let secret = environment["IMGCACHE_REDIS_SECRET"] {
            configuration.secret = try Self.secret(hex: secret)
        }
        return configuration
    }

    /// The secret in `text`'s hex digits (see `HexArgument.bytes`), at least
    /// `RedisConfiguration.minimumSecretBytes` bytes; `invalidArgument` naming
    /// `IMGCACHE_REDIS_SECRET` otherwise.
    static func secret(hex text: String) throws -> Data {
        Data(try HexArgument.bytes(text, name: "IMGCACHE_REDIS_SECRET", minimumBytes: RedisConfiguration.minimumSecretBytes))
    }

    /// Prints a warning the pipeline recovered from on standard error.
    static let log: @Sendable (String) -> Void = { message in CommandLineTool.printError("imgcache: \(message)") }
}
