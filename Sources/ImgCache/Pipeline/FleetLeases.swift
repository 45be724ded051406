import Foundation

/// A lease held on a key of a shared tier: renewed every third of its TTL while the work it
/// covers runs (a download waiting for a slot, a decode, an encode), released once that work is
/// stored. A renewal that fails (the tier did not answer, or the lease went) is tried again the
/// next period, until a whole TTL has passed since the last one that succeeded.
final class HeldLease: Sendable {
    let tier: any CacheLeasing
    let key: String
    let token: String
    private let renewal: Task<Void, Never>

    /// Starts renewing the lease on `io`'s threads until `stopRenewing()`, or a TTL without a
    /// renewal that succeeded.
    init(tier: any CacheLeasing, key: String, token: String, io: BlockingPool) {
        self.tier = tier
        self.key = key
        self.token = token
        renewal = Task {
            let ttl = Duration.seconds(tier.leaseTiming.ttl)
            var lastRenewed = ContinuousClock.now
            while (try? await Task.sleep(for: ttl / 3)) != nil, ContinuousClock.now - lastRenewed < ttl {
                if (try? await io.run { tier.renewLease(forCacheKey: key, token: token) }) == true {
                    lastRenewed = .now
                }
            }
        }
    }

    func stopRenewing() {
        renewal.cancel()
    }
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
    /// it without a value, or died and it expired: at most a TTL after its last renewal), or
    /// `waitLimit` has passed. Then, or as soon as the tier cannot answer, it goes ahead.
    func lookup(_ key: String, in tier: any CacheLeasing) async -> (found: CachedData?, lease: HeldLease?) {
        let timing = tier.leaseTiming
        let deadline = Date().addingTimeInterval(timing.waitLimit)
        var pause = timing.pollStart
        // A cancelled task gets nil from `io.run`, hence a miss and `.unavailable`: it stops.
        var found = (try? await io.run { try tier.cachedData(for: key) }) ?? nil
        while true {
            if let found, !found.isExpired() { return (found, nil) }
            let (attempt, again) = (try? await io.run { tier.acquireLease(forCacheKey: key) }) ?? (.unavailable, nil)
            found = again ?? found
            switch attempt {
            case .acquired(let token):
                let lease = HeldLease(tier: tier, key: key, token: token, io: io)
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

    /// Stops renewing `lease` and releases it, even when the caller was cancelled meanwhile.
    func release(_ lease: HeldLease?) async {
        guard let lease else { return }
        lease.stopRenewing()
        let io = self.io
        await Task { _ = try? await io.run { lease.tier.releaseLease(forCacheKey: lease.key, token: lease.token) } }.value
    }
}
