import Foundation

/// A shared tier that hands out short leases on keys, so that of the instances of a fleet that
/// miss the same key at once, one downloads or renders it while the others wait for its value.
protocol CacheLeasing: DataCaching {
    /// How long a lease lasts unless released or renewed, and how often and how long a waiter looks.
    var leaseTiming: LeaseTiming { get }
    /// Takes the lease of `key` and reads its value again in the same step (a leaseholder stores
    /// its value before releasing, so a lease taken just after a release comes with the value).
    /// `.unavailable` when the tier cannot answer (the tier counts it).
    func acquireLease(forCacheKey key: String) -> (attempt: LeaseAttempt, found: CachedData?)
    /// Releases the lease of `key` if it still holds `token`.
    func releaseLease(forCacheKey key: String, token: String)
    /// Gives the lease of `key` a full TTL again if it still holds `token` (atomically); false
    /// when it does not (it expired and another instance took it) or the tier cannot say.
    func renewLease(forCacheKey key: String, token: String) -> Bool
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

/// A leasing tier's timing: a lease's lifetime (renewed every third of it while held), a waiter's
/// first and longest pause between looks, and the longest a waiter waits.
struct LeaseTiming: Sendable {
    let ttl: TimeInterval
    let pollStart: TimeInterval
    let pollMax: TimeInterval
    let waitLimit: TimeInterval
}
