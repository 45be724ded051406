import Foundation

/// A shared tier that hands out short leases on keys, so that of the instances of a fleet that
/// miss the same key at once, one downloads or renders it while the others wait for its value.
protocol CacheLeasing: DataCaching {
    /// How long a lease lasts unless released or renewed, how often its holder renews it, and how
    /// often a waiter looks again.
    var leaseTiming: LeaseTiming { get }
    /// Takes the lease of `key` and reads its value again in the same step (a leaseholder stores
    /// its value before releasing, so a lease taken just after a release comes with the value).
    /// `.unavailable` when the tier cannot answer (counted by the tier).
    func acquireLease(forCacheKey key: String) -> (attempt: LeaseAttempt, found: CachedData?)
    /// Gives the lease of `key` a whole TTL again if it still holds `token` (atomically); false
    /// when it does not (it expired, and another instance may hold it now) or the tier cannot
    /// answer. For a leaseholder whose work runs long: every `leaseTiming.renewalInterval`.
    func renewLease(forCacheKey key: String, token: String) -> Bool
    /// Releases the lease of `key` if it still holds `token`.
    func releaseLease(forCacheKey key: String, token: String)
    /// Removes the value under `key` only if the tier still holds `copy`'s bytes (atomically), so
    /// that a good value another instance stored meanwhile survives: for a copy read from the
    /// tier that turned out to be damaged (not an image). True when it was removed.
    @discardableResult
    func removeData(for key: String, ifHolding copy: CachedData) -> Bool
}

/// What an attempt to take the lease of a key found.
enum LeaseAttempt: Sendable, Equatable {
    /// Taken: this instance does the work, then releases it with this token.
    case acquired(token: String)
    /// Another instance holds it.
    case held
    /// The tier could not say: go ahead without a lease.
    case unavailable
}

/// A leasing tier's timing: a lease's lifetime, and a waiter's first and longest pause between looks.
struct LeaseTiming: Sendable {
    let ttl: TimeInterval
    let pollStart: TimeInterval
    let pollMax: TimeInterval

    /// How often a leaseholder renews its lease while it works: a third of the TTL, so that two
    /// renewals in a row may fail before the lease lapses.
    var renewalInterval: TimeInterval { ttl / 3 }
}
