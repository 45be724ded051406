import Foundation

/// A lease held on a key of a shared tier: released once the work it covers is stored.
struct HeldLease: Sendable {
    let tier: any CacheLeasing
    let key: String
    let token: String
}

/// Looks keys up in a leasing tier so that, of the instances of a fleet that miss one key at
/// once, one does the work (downloads or renders) while the others wait for its value.
struct FleetLeases: Sendable {
    /// The shared tiers' threads.
    let io: BlockingPool

    /// What `tier` holds under `key` (fresh or stale), and the lease when this instance is to do
    /// the work.
    ///
    /// Without a fresh value this instance takes the lease; when another instance holds it, this
    /// one tries again after `pollStart` (10 ms for Redis), doubling up to `pollMax` (200 ms), each
    /// try reading the value too, until the value is there, the lease is free (its holder released
    /// it without a value, or died and it expired), or the lease TTL has passed. Then, or as soon
    /// as the tier cannot answer, it goes ahead: a dead leaseholder blocks nobody for longer than
    /// the lease TTL.
    func lookup(_ key: String, in tier: any CacheLeasing) async -> (found: CachedData?, lease: HeldLease?) {
        let timing = tier.leaseTiming
        let deadline = Date().addingTimeInterval(timing.ttl)
        var pause = timing.pollStart
        // A cancelled task gets nil from `io.run`, hence a miss and `.unavailable`: it stops.
        var found = (try? await io.run { try tier.cachedData(for: key) }) ?? nil
        while true {
            if let found, !found.isExpired() { return (found, nil) }
            let (attempt, again) = (try? await io.run { tier.acquireLease(forCacheKey: key) }) ?? (.unavailable, nil)
            found = again ?? found
            switch attempt {
            case .acquired(let token):
                let lease = HeldLease(tier: tier, key: key, token: token)
                guard let found, !found.isExpired() else { return (found, lease) }
                await release(lease)
                return (found, nil)
            case .unavailable:
                return (found, nil)
            case .held:
                if let found, !found.isExpired() { return (found, nil) }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return (found, nil) }
                try? await Task.sleep(for: .seconds(min(pause, left)))
                pause = min(pause * 2, timing.pollMax)
            }
        }
    }

    /// Releases `lease`, even when the caller was cancelled meanwhile.
    func release(_ lease: HeldLease?) async {
        guard let lease else { return }
        let io = self.io
        await Task { _ = try? await io.run { lease.tier.releaseLease(forCacheKey: lease.key, token: lease.token) } }.value
    }
}
