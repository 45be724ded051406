import Foundation

/// Where the shared Redis tier is and how long it may take: every setting with its default.
/// The tier sits under the local caches (memory, then disk): a miss there asks Redis before the
/// network, and whatever is downloaded or rendered is written to Redis for the other instances.
/// Redis is never required: when it is slow, down or full, a lookup is a miss and a write is
/// skipped, within the time-outs below.
public struct RedisConfiguration: Sendable, Hashable {
    /// The server's address (a name or an IP address). Non-empty.
    public var host: String
    /// The server's TCP port, 1 to 65535. Default 6379 when the URL names none.
    public var port: Int
    /// Sent with AUTH on every new connection when not nil (with `username` when that is set too,
    /// for Redis 6 ACLs). Default nil.
    public var username: String?
    public var password: String?
    /// The database chosen with SELECT on every new connection, 0 to 15 (Redis's default count of
    /// databases). Default 0.
    public var database: Int
    /// Longest wait for a TCP connection to be accepted. Default 50 ms; 1 ms to 10 s.
    public var connectTimeout: TimeInterval
    /// Longest wait for one command's reply (AUTH, SELECT, GET, SET, EVAL...). Default 100 ms;
    /// 1 ms to 10 s.
    public var commandTimeout: TimeInterval
    /// Connections kept open to the server per pipeline; a command that finds them all busy waits
    /// up to `commandTimeout` for one, then is a miss. Default 2; 1 to 64.
    public var connectionCount: Int
    /// Largest value (framed bytes) written to Redis; a bigger original or variant is kept in the
    /// local cache only. Default 8 MiB; 1 KiB to 512 MiB (Redis's own limit).
    public var maxValueBytes: Int
    /// Added to a value's HTTP freshness to make its Redis TTL, so that a stale copy (with its
    /// validators) stays for revalidation by a 304. Default 1 day; 0 to 30 days.
    public var gracePeriod: TimeInterval
    /// How long the lease taken before a download or a render lasts unless renewed: its holder
    /// renews it every third of this while the work runs, so a holder that dies delays the others
    /// by at most this. Default 5 s; 10 ms to 10 minutes.
    public var leaseTTL: TimeInterval
    /// The longest an instance waits for a value whose lease another instance holds (and renews)
    /// before it does the work itself. Default 120 s (more than a download's 60 s overall time-out
    /// and a render); from the lease TTL to an hour.
    public var leaseWaitLimit: TimeInterval
    /// The first and the longest pause between two looks for a value another instance is
    /// downloading: 10 ms, doubling up to 200 ms. Each at least 1 ms, the first not over the longest.
    public var leasePollStart: TimeInterval
    public var leasePollMax: TimeInterval
    /// After a failure (connection refused, time-out, a broken connection) Redis is skipped for
    /// this long before it is tried again; each further failure doubles it, up to
    /// `retryAfterFailureMax`. Default 1 s, at most 30 s; each 1 ms to an hour.
    public var retryAfterFailure: TimeInterval
    public var retryAfterFailureMax: TimeInterval

    /// Parses `redis://[[username]:password@]host[:port][/db]` (password and username
    /// percent-decoded), with every other setting at its default.
    /// - Throws: `invalidArgument` for another scheme, an empty host, a port out of 1...65535, a
    ///   database out of 0...15, or a query or fragment.
    public init(url text: String) throws {
        guard let components = URLComponents(string: text) else {
            throw ImgCacheError.invalidArgument("'\(text)' is not a redis:// URL")
        }
        guard components.scheme?.lowercased() == "redis" else {
            throw ImgCacheError.invalidArgument("'\(text)': the scheme must be redis://")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ImgCacheError.invalidArgument("'\(text)': the Redis URL names no host")
        }
        guard components.query == nil, components.fragment == nil else {
            throw ImgCacheError.invalidArgument("'\(text)': a Redis URL takes no query or fragment")
        }
        let path = components.percentEncodedPath.drop { $0 == "/" }
        guard path.isEmpty || (path.count <= 2 && path.allSatisfy(\.isASCII) && path.allSatisfy(\.isNumber)),
              components.percentEncodedPath.filter({ $0 == "/" }).count <= 1
        else {
            throw ImgCacheError.invalidArgument("'\(text)': the database must be a number from 0 to 15")
        }
        self.init(host: host, port: components.port ?? 6379, database: Int(path) ?? 0)
        username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password
        try validate()
    }

    /// A configuration for `host:port`, database `database`, no password, other settings at
    /// their defaults.
    public init(host: String, port: Int = 6379, database: Int = 0) {
        self.host = host
        self.port = port
        self.database = database
        connectTimeout = 0.05
        commandTimeout = 0.1
        connectionCount = 2
        maxValueBytes = 8 << 20
        gracePeriod = 86_400
        leaseTTL = 5
        leaseWaitLimit = 120
        leasePollStart = 0.01
        leasePollMax = 0.2
        retryAfterFailure = 1
        retryAfterFailureMax = 30
    }

    /// The URL without its password, for messages.
    public var displayURL: String { "redis://\(host):\(port)/\(database)" }

    /// Throws `invalidArgument` naming the first setting out of its range (see each setting).
    public func validate() throws {
        if host.isEmpty { throw ImgCacheError.invalidArgument("the Redis host is empty") }
        let integers: [(String, Int, ClosedRange<Int>)] = [
            ("Redis port", port, 1...65_535),
            ("Redis database", database, 0...15),
            ("Redis connection count", connectionCount, 1...64),
            ("Redis value size cap", maxValueBytes, 1024...(512 << 20)),
        ]
        for (name, value, range) in integers where !range.contains(value) {
            throw ImgCacheError.invalidArgument("\(name) \(value) is not in \(range.lowerBound)...\(range.upperBound)")
        }
        let durations: [(String, TimeInterval, ClosedRange<TimeInterval>)] = [
            ("Redis connect time-out", connectTimeout, 0.001...10),
            ("Redis command time-out", commandTimeout, 0.001...10),
            ("Redis grace period", gracePeriod, 0...(30 * 86_400)),
            ("Redis lease TTL", leaseTTL, 0.01...600),
            ("Redis lease wait limit", leaseWaitLimit, leaseTTL.clamped(0.01, 600)...3600),
            ("Redis lease poll start", leasePollStart, 0.001...leasePollMax.clamped(0.001, 600)),
            ("Redis lease poll maximum", leasePollMax, 0.001...600),
            ("Redis retry after failure", retryAfterFailure, 0.001...3600),
            ("Redis retry after failure maximum", retryAfterFailureMax, 0.001...3600),
        ]
        for (name, value, range) in durations where !range.contains(value) {
            throw ImgCacheError.invalidArgument("\(name) \(value) s is not in \(range.lowerBound)...\(range.upperBound) s")
        }
    }
}

private extension TimeInterval {
    func clamped(_ low: TimeInterval, _ high: TimeInterval) -> TimeInterval { Swift.min(Swift.max(self, low), high) }
}
