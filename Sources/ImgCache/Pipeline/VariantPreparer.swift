import Foundation

/// Makes variants ready by composing the stages: the variant store (disk, then shared tiers under
/// leases), the original store (caches, then the origin) and the renderer. Variants of one
/// original that are missing are rendered from one fetch and one decode (per DCT scale) of it;
/// stored variants whose original turns out unchanged are kept and given its new expiry.
struct VariantPreparer: Sendable {
    typealias Results = [String: Result<PreparedVariant, any Error>]

    let originals: OriginalStore
    let variants: VariantStore
    let renderer: VariantRenderer
    /// Original fetches in flight, shared by requests for the same original with the same policies.
    let originalFetches = TaskCoalescer<String, OriginalFetch>()
    let blocking: BlockingPool

    /// The variants for `plans` (one original, one cache and storage policy), keyed by work key.
    /// With `keepsPixels`, variants rendered now keep the pixels they were encoded from.
    func makeReady(_ plans: [RequestPlan], keepsPixels: Bool, context: WorkContext) async -> Results {
        guard let policy = plans.first?.request.cachePolicy else { return [:] }
        var results: Results = [:]
        var missing = plans
        if policy != .reload {
            missing = []
            let lookup: VariantStore.Lookup = policy == .cacheOnly ? .anyFreshness : .fresh
            for (plan, found) in zip(plans, await variants.stored(plans, lookup, outcome: .disk)) {
                switch found {
                case .success(let variant?): results[plan.workKey] = .success(variant)
                case .success(nil): missing.append(plan)
                case .failure(let error): results[plan.workKey] = .failure(error)
                }
            }
        }
        guard policy != .reload, !missing.isEmpty else {
            return await fetchAndRender(missing, results, keepsPixels: keepsPixels, context: context)
        }
        var leases: [HeldLease] = []
        var unshared: [RequestPlan] = []
        // In variant key order, the same in every instance: two instances never wait for each
        // other's leases.
        for plan in missing.sorted(by: { $0.variantKey < $1.variantKey }) {
            let (variant, lease) = await variants.shared(plan)
            if let variant { results[plan.workKey] = .success(variant) } else { unshared.append(plan) }
            if let lease { leases.append(lease) }
        }
        let rendered = await fetchAndRender(unshared, results, keepsPixels: keepsPixels, context: context)
        for lease in leases { await originals.leases.release(lease) }
        return rendered
    }

    /// `found` completed with the variants of `missing`: the original (fetched once,
    /// revalidated when stale) rendered once for all of them, or their stored copies refreshed
    /// when the original is unchanged.
    private func fetchAndRender(
        _ missing: [RequestPlan], _ found: Results, keepsPixels: Bool, context: WorkContext
    ) async -> Results {
        var results = found
        guard let first = missing.first else { return results }
        let loadStart = DispatchTime.now()
        let request = first.originalRequest
        let original: OriginalFetch
        do {
            original = try await fetch(request, context: context)
        } catch {
            for plan in missing { results[plan.workKey] = .failure(error) }
            return results
        }
        let loading = ImagePipeline.seconds(since: loadStart)
        var toRender = missing
        if !original.changed, original.isStored, first.request.cachePolicy != .reload {
            // The original is the one stored variants were rendered from: they stay, fresh again.
            let outcome: CacheOutcome = [.disk, .shared].contains(original.outcome) ? original.outcome : .revalidated
            toRender = []
            let refreshed = await variants.stored(missing, .refreshed(expiresAt: original.copy.expiresAt), outcome: outcome)
            for (plan, found) in zip(missing, refreshed) {
                switch found {
                case .success(let variant?): results[plan.workKey] = .success(variant.loaded(in: loading))
                case .success(nil): toRender.append(plan)
                case .failure(let error): results[plan.workKey] = .failure(error)
                }
            }
        }
        guard !toRender.isEmpty else { return results }
        // Targets decoded together share their colour policy: one render per policy.
        for group in Dictionary(grouping: toRender, by: \.options.colorPolicy).values {
            let rendered: Results
            do {
                rendered = try await renderHealing(original, group, request: request, keepsPixels: keepsPixels, context: context)
            } catch {
                rendered = Dictionary(uniqueKeysWithValues: group.map { ($0.workKey, .failure(error)) })
            }
            for (key, result) in rendered { results[key] = result.map { $0.loaded(in: loading) } }
        }
        return results
    }

    /// The original `request` asks for, fetched once for every request in flight that asks for it.
    private func fetch(_ request: OriginalRequest, context: WorkContext) async throws -> OriginalFetch {
        try await originalFetches.value(for: request.coalescingKey, context: context) { [originals] shared in
            try await originals.fetch(request, context: shared)
        }
    }

    /// `render`, healing a cached original that does not decode: it is removed from the disk and
    /// from every shared tier (so that no instance takes it again), and when it came from a cache
    /// rather than from the origin just now, the original is fetched again from the origin
    /// (`.reload`) and rendered once more.
    private func renderHealing(
        _ original: OriginalFetch, _ plans: [RequestPlan], request: OriginalRequest, keepsPixels: Bool,
        context: WorkContext
    ) async throws -> Results {
        do {
            return try await render(original, plans, keepsPixels: keepsPixels, context: context)
        } catch let error as ImgCacheError where error.isDamagedImage {
            await discard(original, key: request.key, url: request.url)
            guard original.outcome != .network else { throw error }
            let fresh = try await fetch(request.reloading, context: context)
            return try await render(fresh, plans, keepsPixels: keepsPixels, context: context)
        }
    }

    /// Removes a damaged original from the disk and from the shared tiers that hold these bytes.
    private func discard(_ original: OriginalFetch, key: String, url: URL) async {
        let disk = originals.disk
        _ = try? await blocking.run { try disk.removeData(for: key) }
        await originals.shared.remove(key, ifHolding: original.copy, from: originals.shared.tiers(for: url))
    }

    /// The original decoded once for every plan and each variant encoded and stored (see
    /// `VariantStore.store`); throws what the decode throws.
    private func render(_ original: OriginalFetch, _ plans: [RequestPlan], keepsPixels: Bool, context: WorkContext) async throws
        -> Results
    {
        let work = try await renderer.render(original.copy.source, plans, keepsPixels: keepsPixels, context: context)
        let storeStart = DispatchTime.now()
        let stored: [Result<CachedData?, any Error>]
        do {
            stored = try await variants.store(work.encoded, of: original)
        } catch {
            return Dictionary(uniqueKeysWithValues: plans.map { ($0.workKey, .failure(error)) })
        }
        // Each variant's share of the work done for all of them.
        let share = 1 / Double(plans.count)
        let timings = ImageTimings(
            decoding: work.decoding * share, encoding: (work.encoding + ImagePipeline.seconds(since: storeStart)) * share)
        var results: Results = [:]
        for (encoded, copy) in zip(work.encoded, stored) {
            results[encoded.plan.workKey] = copy.map { copy in
                PreparedVariant(
                    format: encoded.format, pixelSize: encoded.size, frameCount: encoded.frameCount,
                    byteCount: encoded.data.count, fileURL: copy?.fileURL, unstoredData: copy == nil ? encoded.data : nil,
                    source: (encoded.info.format, encoded.info.sourceSize, encoded.info.poster?.index), cacheOutcome: original.outcome,
                    timings: timings, expiresAt: copy?.expiresAt ?? original.copy.expiresAt, image: encoded.image)
            }
        }
        return results
    }
}
