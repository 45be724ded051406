/// What the shared Redis tier did: counted by each pipeline for itself, and added up for every
/// instance in the Redis hash `imgcache:stats` (shown by `imgcache cache stats --redis URL`).
public struct RedisTierCounters: Sendable, Equatable {
    /// Lookups that found a valid, fresh value.
    public var hits = 0
    /// Lookups that found nothing, a stale value, or a value that failed its checks. The looks
    /// of an instance waiting for another's download are not counted: one miss per wait.
    public var misses = 0
    /// Values written.
    public var stores = 0
    /// Calls that did not run or were refused: Redis unreachable or skipped after a failure, a
    /// time-out, every connection busy, an error reply such as `-OOM` or `-READONLY`, a reply of
    /// the wrong type.
    public var errors = 0
    /// Lookups that found a value failing its checks (counted in `misses` too): damaged, of
    /// another frame version, or with a tag that does not verify (written without the secret,
    /// under another one, by someone else who can write to Redis, or under another key).
    public var rejected = 0
    /// Leases that could not be taken because Redis could not answer (unreachable, skipped after
    /// a failure, every connection busy, a time-out, an error reply): the instance went ahead
    /// without one, so others may fetch the same key at once.
    public var leasesUnavailable = 0

    /// Counters with the given values, each default 0.
    public init(hits: Int = 0, misses: Int = 0, stores: Int = 0, errors: Int = 0, rejected: Int = 0, leasesUnavailable: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.stores = stores
        self.errors = errors
        self.rejected = rejected
        self.leasesUnavailable = leasesUnavailable
    }

    /// The counters' field names in the Redis hash, in a stable order.
    static let fieldNames = ["hits", "misses", "stores", "errors", "rejected", "leasesUnavailable"]

    /// The counters by their field names in the Redis hash, in the order of `fieldNames`.
    var fields: [(String, Int)] { Array(zip(Self.fieldNames, [hits, misses, stores, errors, rejected, leasesUnavailable])) }

    /// Counters read from the field-value pairs of the Redis hash (missing fields are 0).
    init(hash pairs: [String: Int]) {
        self.init(
            hits: pairs["hits"] ?? 0, misses: pairs["misses"] ?? 0, stores: pairs["stores"] ?? 0,
            errors: pairs["errors"] ?? 0, rejected: pairs["rejected"] ?? 0,
            leasesUnavailable: pairs["leasesUnavailable"] ?? 0)
    }

    static func + (left: RedisTierCounters, right: RedisTierCounters) -> RedisTierCounters {
        RedisTierCounters(
            hits: left.hits + right.hits, misses: left.misses + right.misses, stores: left.stores + right.stores,
            errors: left.errors + right.errors, rejected: left.rejected + right.rejected,
            leasesUnavailable: left.leasesUnavailable + right.leasesUnavailable)
    }
}
