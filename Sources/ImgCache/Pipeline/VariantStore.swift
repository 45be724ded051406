import Foundation

/// Finds and stores variants: on the disk (fresh; at any freshness for a cache-only request; or
/// given a new expiry once their original is confirmed unchanged), then in the shared tiers, whose
/// copies are stored on the disk too. On a leasing tier's miss it takes the lease, so that one
/// instance of a fleet renders the variant while the others wait for it.
struct VariantStore: Sendable {
    let disk: DiskCache
    /// The tiers after the disk, in lookup order.
    let shared: SharedTiers
    let blocking: BlockingPool
    let leases: FleetLeases

    /// How a stored variant is looked up.
    enum Lookup: Sendable {
        /// Served only while fresh.
        case fresh
        /// Served fresh or stale (a cache-only request).
        case anyFreshness
        /// Given a new expiry first (its original was confirmed unchanged).
        case refreshed(expiresAt: Date?)
    }

    /// The variant of each plan on the disk, nil when there is none to serve: missing, expired, or
    /// no longer an image (it is then removed). A file that another process removed since the
    /// lookup is a miss too.
    func stored(_ plans: [RequestPlan], _ lookup: Lookup, outcome: CacheOutcome) async -> [Result<PreparedVariant?, any Error>] {
        let found = try? await blocking.run { [disk] in
            plans.map { plan in
                Result<PreparedVariant?, any Error> {
                    let copy: CachedData?
                    switch lookup {
                    case .fresh: copy = try disk.cachedData(for: plan.variantKey).flatMap { $0.isExpired() ? nil : $0 }
                    case .anyFreshness: copy = try disk.cachedData(for: plan.variantKey)
                    case .refreshed(let expiry):
                        let renewed = CachedData(data: Data(), expiresAt: expiry)
                        copy = try disk.refreshData(renewed, for: plan.variantKey, kind: .variant(of: plan.originalKey))
                    }
                    guard let copy else { return nil }
                    do {
                        return try PreparedVariant.stored(copy, outcome: outcome)
                    } catch let error as ImgCacheError where error.isDamagedImage {
                        try disk.removeData(for: plan.variantKey)
                        return nil
                    } catch let error as ImgCacheError {
                        guard case .io = error else { throw error }
                        return nil
                    }
                }
            }
        }
        return found ?? plans.map { _ in .failure(CancellationError()) }
    }

    /// The variant of `plan` from the first shared tier that holds one (fresh, or at any
    /// freshness for a cache-only request), stored on the disk unless the request stores nothing;
    /// otherwise nil, with the lease when this instance is to render it.
    func shared(_ plan: RequestPlan) async -> (variant: PreparedVariant?, lease: HeldLease?) {
        let policy = plan.request.cachePolicy
        var lease: HeldLease?
        for tier in shared.tiers(for: plan.request.url) {
            let found: CachedData?
            if let leasing = tier as? any CacheLeasing, policy == .useCache, lease == nil {
                (found, lease) = await leases.lookup(plan.variantKey, in: leasing)
            } else {
                found = await shared.lookup(plan.variantKey, in: tier)
            }
            guard let found, policy == .cacheOnly || !found.isExpired() else { continue }
            switch await adopt(found, plan) {
            case .adopted(let variant):
                await leases.release(lease)
                return (variant, nil)
            case .damaged:
                // No instance should take it again.
                await shared.remove(plan.variantKey, ifHolding: found, from: [tier])
            case .unstored:
                continue
            }
        }
        return (nil, lease)
    }

    /// What became of a variant from a shared tier.
    private enum Adoption {
        /// Described from its headers (and stored on the disk unless the request stores nothing).
        case adopted(PreparedVariant)
        /// Not an image, or headers that do not read.
        case damaged
        /// Fine, but the disk could not take it.
        case unstored
    }

    /// A variant from a shared tier checked (its headers must read), stored on the disk (linked to
    /// its original) unless the request stores nothing, and described, outcome `.shared`.
    private func adopt(_ found: CachedData, _ plan: RequestPlan) async -> Adoption {
        let disk = self.disk
        let adoption = try? await blocking.run { () -> Adoption in
            guard let described = try? PreparedVariant.stored(found, outcome: .shared) else { return .damaged }
            guard plan.request.storage != .none else { return .adopted(described) }
            guard let stored = try? disk.storeData(found, for: plan.variantKey, kind: .variant(of: plan.originalKey)),
                  let variant = try? PreparedVariant.stored(stored, outcome: .shared)
            else { return .unstored }
            return .adopted(variant)
        }
        return adoption ?? .unstored
    }

    /// Removes a stored variant that does not decode from the disk, and from the shared tiers that
    /// hold the same bytes, so that the next lookup renders it again rather than adopting it.
    func discard(_ plan: RequestPlan) async {
        let disk = self.disk
        let damaged = try? await blocking.run { () -> CachedData? in
            defer { try? disk.removeData(for: plan.variantKey) }
            return try disk.cachedData(for: plan.variantKey).map { CachedData(data: try $0.data()) }
        }
        guard let damaged = damaged ?? nil else { return }
        await shared.remove(plan.variantKey, ifHolding: damaged, from: shared.tiers(for: plan.request.url))
    }

    /// Stores each encoded variant on the disk and in the shared tiers, with the original's
    /// expiry, and returns each one's stored copy: nil when it may not be stored (see
    /// `OriginalFetch.storesVariants`) or is over the disk's whole size limit.
    func store(_ encoded: [EncodedVariant], of original: OriginalFetch) async throws -> [Result<CachedData?, any Error>] {
        guard original.storesVariants else { return encoded.map { _ in .success(nil) } }
        let disk = self.disk
        let expiresAt = original.copy.expiresAt
        let copies = encoded.map { CachedData(data: $0.data, contentType: $0.format.mimeType, expiresAt: expiresAt) }
        let stored = try await blocking.run {
            zip(encoded, copies).map { variant, copy in
                Result { try disk.storeData(copy, for: variant.plan.variantKey, kind: .variant(of: variant.plan.originalKey)) }
            }
        }
        for (variant, (copy, result)) in zip(encoded, zip(copies, stored)) {
            guard case .success(_?) = result else { continue }
            await shared.store(
                copy, for: variant.plan.variantKey, kind: .variant(of: variant.plan.originalKey), from: variant.plan.request.url)
        }
        return stored
    }
}
