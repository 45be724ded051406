import Foundation

/// Where the shared Redis tier is and how long it may take: every setting with its default.
/// The tier sits under the local caches (memory, then disk): a miss there asks Redis before the
/// network, and whatever is downloaded or rendered is written to Redis for the other instances.
/// Redis is never required: when it is slow, down or full, a lookup is a miss and a write is
/// skipped, within the time-outs below.
public struct RedisConfiguration: Sendable, Hashable {
    /// The servers and how keys are spread over them: `.server` for one Redis, `.cluster` for
    /// a Redis Cluster, `.sentinel` for a master that Redis Sentinel names. A host name is resolved on a thread of its own, within `resolveTimeout`
    /// (one server's when the tier is made, a cluster node's when the tier first sends to it), and
    /// its addresses are kept: it is resolved again only after a connection to them failed.
    public var deployment: RedisDeployment
    /// Sent with AUTH on every new connection when not nil (with `username` when that is set too,
    /// for Redis 6 ACLs); behind Sentinel, to the master only, never to the sentinels. Default nil.
    public var username: String?
    /// The password sent with AUTH on every new connection when not nil. Default nil.
    public var password: String?
    /// The key of the HMAC-SHA256 that authenticates every value written and read: a value whose
    /// tag does not verify under it (written by an instance without the secret or with another,
    /// or by anyone else who can write to Redis) is a miss, counted in `rejected`, and is
    /// overwritten by the next store. Every instance sharing a Redis must have the same secret,
    /// or none. Default nil: values carry only a CRC-32, so anyone who can write to Redis chooses
    /// the bytes every instance serves for any URL. At least 16 bytes (32 random bytes suit it).
    public var secret: Data?
    /// The database chosen with SELECT on every new connection, 0 to 15 (Redis's default count of
    /// databases). Default 0.
    public var database: Int
    /// Longest wait for a TCP connection to be accepted. Default 50 ms; 1 ms to 10 s.
    public var connectTimeout: TimeInterval
    /// Longest wait for a host name to resolve to addresses (an IP address needs none): the resolution
    /// goes on in the background past it, and the call that waited is a failure (Redis is skipped
    /// for `retryAfterFailure`). Default 1 s; 1 ms to 30 s.
    public var resolveTimeout: TimeInterval
    /// Longest time one round trip may take as a whole, from the first byte of its commands sent
    /// to the last byte of their replies (AUTH and SELECT; GET, SET, EVAL... with the counters
    /// sent beside them), plus 100 ms for every MiB sent or received in it, so that a value at
    /// the 8 MiB cap gets 0.8 s more over a 10 MiB/s link. A reply that trickles in fails at the
    /// deadline, and a round trip whose replies pass `maxValueBytes` plus 64 KiB fails when they
    /// do. Default 100 ms; 1 ms to 10 s.
    public var commandTimeout: TimeInterval
    /// Connections kept open to the server per pipeline, opened only as calls need them; a call
    /// that finds them all busy waits up to `commandTimeout` for one, then is a miss (a lease is
    /// then unavailable, counted in `leasesUnavailable`). Default 16: a pipeline makes its Redis
    /// calls (lookups, stores, leases and their renewals) on threads of their own, one per
    /// download at once (`maxConcurrentLoads`, default 8), so no call waits for a connection even
    /// with twice the default downloads, while Redis sees no more connections than calls made at
    /// once. 1 to 256.
    public var connectionCount: Int
    /// Largest value (framed bytes) written to Redis; a bigger original or variant is kept in the
    /// local cache only. Default 8 MiB; 1 KiB to 512 MiB (Redis's own limit).
    public var maxValueBytes: Int
    /// Added to a value's HTTP freshness to make its Redis TTL, so that a stale copy (with its
    /// validators) stays for revalidation by a 304. Default 1 day; 0 to 30 days.
    public var gracePeriod: TimeInterval
    /// How long the lease taken before a download or a render lasts unless released or renewed:
    /// the longest a leaseholder that died delays the others. Its holder renews it every third of
    /// the TTL while the work runs (a download, a decode, an encode). Default 10 s, so that a
    /// renewal may come late by more than a TTL's third (a loaded machine, a call that waited for
    /// a connection, Redis skipped for 1 s after a failure) before the lease lapses and others
    /// fetch too; a dead holder costs the others at most 10 s in a rare event, where a download
    /// costs the origin a request each time. 10 ms to 10 minutes.
    public var leaseTTL: TimeInterval
    /// The longest an instance waits for a value whose lease another instance holds (and renews)
    /// before it does the work itself. Default 120 s (more than a download's 60 s overall time-out
    /// and a render); from the lease TTL to an hour.
    public var leaseWaitLimit: TimeInterval
    /// The first and the longest pause between two looks for a value another instance is
    /// downloading: 10 ms, doubling up to 200 ms. Each at least 1 ms, the first not over the longest.
    public var leasePollStart: TimeInterval
    /// The longest pause between two looks for a value another instance holds the lease for (see
    /// `leasePollStart`). Default 200 ms.
    public var leasePollMax: TimeInterval
    /// After a failure (connection refused, time-out, a broken connection) Redis is skipped for
    /// this long before it is tried again; each further failure doubles it, up to
    /// `retryAfterFailureMax`. Default 1 s, at most 30 s; each 1 ms to an hour, the first not
    /// over the longest. Behind Sentinel, the sentinels are asked for the master again at most
    /// once per `retryAfterFailure` while it fails.
    public var retryAfterFailure: TimeInterval
    /// The longest Redis is skipped after consecutive failures (see `retryAfterFailure`). Default
    /// 30 s.
    public var retryAfterFailureMax: TimeInterval

    /// A configuration for `host:port`, database `database`, no password and no secret, other
    /// settings at their defaults.
    /// - Throws: `invalidArgument` for an empty host, a port out of 1...65535 or a database out
    ///   of 0...15 (see `validate()`).
    public init(host: String, port: Int = 6379, database: Int = 0) throws {
        try self.init(deployment: .server(RedisAddress(host: host, port: port)), database: database)
    }

    /// A configuration for `deployment`, database `database` (0 for a cluster), no password and no
    /// secret, other settings at their defaults.
    /// - Throws: `invalidArgument` for a setting out of range (see `validate()`).
    public init(deployment: RedisDeployment, database: Int = 0) throws {
        self.deployment = deployment
        self.database = database
        connectTimeout = 0.05
        resolveTimeout = 1
        commandTimeout = 0.1
        connectionCount = 16
        maxValueBytes = 8 << 20
        gracePeriod = 86_400
        leaseTTL = 10
        leaseWaitLimit = 120
        leasePollStart = 0.01
        leasePollMax = 0.2
        retryAfterFailure = 1
        retryAfterFailureMax = 30
        try validate()
    }

    /// The fewest bytes `secret` may have.
    public static let minimumSecretBytes = 16

    /// The URL without its password, for messages.
    public var displayURL: String {
        switch deployment {
        case .server(let address): "redis://\(address)/\(database)"
        case .cluster(let seeds): "redis-cluster://" + seeds.map(\.description).joined(separator: ",")
        case .sentinel(let sentinels, let masterName):
            "redis-sentinel://" + sentinels.map(\.description).joined(separator: ",") + "/\(masterName)/\(database)"
        }
    }

    /// Throws `invalidArgument` naming the first setting out of its range (see each setting).
    /// `RedisTier` checks its configuration with it: a tier whose configuration fails serves
    /// without Redis, with one warning.
    public func validate() throws {
        let addresses = deployment.addresses
        if addresses.isEmpty { throw ImgCacheError.invalidArgument("no Redis address") }
        for address in addresses { try address.validate() }
        if case .cluster = deployment, database != 0 {
            throw ImgCacheError.invalidArgument("a Redis Cluster has database 0 only, not \(database)")
        }
        if case .sentinel(_, let masterName) = deployment, !Self.isMasterName(masterName) {
            throw ImgCacheError.invalidArgument(
                "the Redis master name must be 1 to \(Self.maximumMasterNameBytes) bytes without spaces or control characters")
        }
        if let secret, secret.count < Self.minimumSecretBytes {
            throw ImgCacheError.invalidArgument(
                "the Redis secret has \(secret.count) bytes; it needs at least \(Self.minimumSecretBytes)")
        }
        let integers: [(String, Int, ClosedRange<Int>)] = [
            ("Redis database", database, 0...15),
            ("Redis connection count", connectionCount, 1...256),
            ("Redis value size cap", maxValueBytes, 1024...(512 << 20)),
        ]
        for (name, value, range) in integers where !range.contains(value) {
            throw ImgCacheError.invalidArgument("\(name) \(value) is not in \(range.lowerBound)...\(range.upperBound)")
        }
        try Self.check("connect time-out", connectTimeout, 0.001, 10)
        try Self.check("resolve time-out", resolveTimeout, 0.001, 30)
        try Self.check("command time-out", commandTimeout, 0.001, 10)
        try Self.check("grace period", gracePeriod, 0, 30 * 86_400)
        try Self.check("lease TTL", leaseTTL, 0.01, 600)
        try Self.check("lease wait limit", leaseWaitLimit, leaseTTL, 3600)
        // Each maximum before the setting it bounds.
        try Self.check("lease poll maximum", leasePollMax, 0.001, 600)
        try Self.check("lease poll start", leasePollStart, 0.001, leasePollMax)
        try Self.check("retry after failure maximum", retryAfterFailureMax, 0.001, 3600)
        try Self.check("retry after failure", retryAfterFailure, 0.001, retryAfterFailureMax)
    }

    /// Throws `invalidArgument` unless `value` is in `low...high` (NaN never is).
    private static func check(_ name: String, _ value: TimeInterval, _ low: TimeInterval, _ high: TimeInterval) throws {
        guard value >= low, value <= high else {
            throw ImgCacheError.invalidArgument("Redis \(name) \(value) s is not in \(low)...\(high) s")
        }
    }
}
