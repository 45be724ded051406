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
    /// time-out, an error reply such as `-OOM` or `-READONLY`, a reply of the wrong type.
    public var errors = 0

    public init(hits: Int = 0, misses: Int = 0, stores: Int = 0, errors: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.stores = stores
        self.errors = errors
    }

    /// The counters by their field names in the Redis hash, in a stable order.
    var fields: [(String, Int)] { [("hits", hits), ("misses", misses), ("stores", stores), ("errors", errors)] }

    /// Counters read from the field-value pairs of HGETALL (missing fields are 0).
    init(hash pairs: [String: Int]) {
        self.init(hits: pairs["hits"] ?? 0, misses: pairs["misses"] ?? 0, stores: pairs["stores"] ?? 0,
                  errors: pairs["errors"] ?? 0)
    }

    static func + (left: RedisTierCounters, right: RedisTierCounters) -> RedisTierCounters {
        RedisTierCounters(hits: left.hits + right.hits, misses: left.misses + right.misses,
                          stores: left.stores + right.stores, errors: left.errors + right.errors)
    }
}
