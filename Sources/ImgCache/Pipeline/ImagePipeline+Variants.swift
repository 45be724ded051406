import Foundation

extension ImagePipeline {
    typealias VariantResults = [String: Result<PreparedVariant, any Error>]

    /// The variants for `plans`, which share one URL, keyed by variant key. Variants in flight
    /// are joined; the others are made ready together: found in the cache, or rendered from one
    /// fetch and one decode (per DCT scale) of the original. With `keepsPixels`, variants rendered
    /// now keep the pixels they were encoded from.
    func variants(for plans: [Plan], keepsPixels: Bool) async -> VariantResults {
        let byKey = Dictionary(plans.map { ($0.variantKey, $0) }, uniquingKeysWith: { first, _ in first })
        return await variants.values(for: Array(byKey.keys)) { [self] keys in
            await makeReady(keys.map { byKey[$0]! }, keepsPixels: keepsPixels)
        }
    }

    /// Stored variants where they are fresh and intact, then fresh variants from the Redis tier
    /// (waiting for those another instance holds the lease of); for the rest, the original
    /// (fetched once, revalidated when stale) is rendered once for all of them, under their
    /// leases, released once they are stored.
    private func makeReady(_ plans: [Plan], keepsPixels: Bool) async -> VariantResults {
        var results: VariantResults = [:]
        var missing: [Plan] = []
        for (plan, found) in zip(plans, await storedVariants(plans, .fresh, outcome: .disk)) {
            switch found {
            case .success(let variant?): results[plan.variantKey] = .success(variant)
            case .success(nil): missing.append(plan)
            case .failure(let error): results[plan.variantKey] = .failure(error)
            }
        }
        guard let redis = missing.first.flatMap({ redisTier(for: $0.request.url) }) else {
            return await fetchAndRender(missing, results, keepsPixels: keepsPixels)
        }
        var leases: [(key: String, token: String)] = []
        var unshared: [Plan] = []
        // In variant key order, the same in every instance: two instances never wait for each
        // other's leases.
        for plan in missing.sorted(by: { $0.variantKey < $1.variantKey }) {
            let key = RedisTier.variantKey(plan.variantKey)
            let shared = await sharedValue(key, redis)
            if let value = shared.value, !value.isExpired(), let variant = await adoptVariant(value, plan) {
                results[plan.variantKey] = .success(variant)
            } else {
                unshared.append(plan)
            }
            if let token = shared.lease { leases.append((key, token)) }
        }
        let rendered = await fetchAndRender(unshared, results, keepsPixels: keepsPixels)
        for lease in leases { await releaseLease(lease.key, lease.token, redis) }
        return rendered
    }

    /// `results` completed with the variants of `missing`: the original (fetched once,
    /// revalidated when stale) rendered once for all of them, or their stored copies refreshed
    /// when the original is unchanged.
    private func fetchAndRender(_ missing: [Plan], _ found: VariantResults, keepsPixels: Bool) async -> VariantResults {
        var results = found
        guard let first = missing.first else { return results }
        let loadStart = DispatchTime.now()
        let original: OriginalFetch
        do {
            original = try await originals.value(for: first.originalKey) { [self] in
                try await fetchOriginal(first.request.url) { data in
                    _ = try ImageFormat.sniff(data.prefix(ImageFormat.signatureLength))
                }
            }
        } catch {
            for plan in missing { results[plan.variantKey] = .failure(error) }
            return results
        }
        let loading = Self.seconds(since: loadStart)
        var toRender = missing
        if !original.changed, original.entry != nil {
            // The original is the one stored variants were rendered from: they stay, fresh again.
            let outcome: CacheOutcome = [.disk, .shared].contains(original.outcome) ? original.outcome : .revalidated
            toRender = []
            let refreshed = await storedVariants(missing, .refreshed(expiresAt: original.expiresAt), outcome: outcome)
            for (plan, found) in zip(missing, refreshed) {
                switch found {
                case .success(let variant?): results[plan.variantKey] = .success(variant.loaded(in: loading))
                case .success(nil): toRender.append(plan)
                case .failure(let error): results[plan.variantKey] = .failure(error)
                }
            }
        }
        guard !toRender.isEmpty else { return results }
        // Targets decoded together share their colour policy: one render per policy.
        var rendered: VariantResults = [:]
        for group in Dictionary(grouping: toRender, by: \.options.colorPolicy).values {
            rendered.merge(await render(original, group, keepsPixels: keepsPixels)) { first, _ in first }
        }
        for plan in toRender {
            results[plan.variantKey] = rendered[plan.variantKey]?.map { $0.loaded(in: loading) }
        }
        return results
    }

    /// How a stored variant is looked up.
    private enum Lookup: Sendable {
        /// Served only while fresh.
        case fresh
        /// Given a new expiry first (its original was confirmed unchanged).
        case refreshed(expiresAt: Date?)
    }

    /// The stored variant of each plan, nil when there is none to serve: missing, expired, or no
    /// longer an image (it is then removed). A file that another process removed since the lookup
    /// is a miss too.
    private func storedVariants(_ plans: [Plan], _ lookup: Lookup, outcome: CacheOutcome) async
        -> [Result<PreparedVariant?, any Error>]
    {
        let found = try? await blocking.run { [diskCache] in
            plans.map { plan in
                Result<PreparedVariant?, any Error> {
                    let entry: CacheEntry?
                    switch lookup {
                    case .fresh: entry = try diskCache.entry(for: plan.variantKey).flatMap { $0.isExpired() ? nil : $0 }
                    case .refreshed(let expiry): entry = try diskCache.refresh(for: plan.variantKey, expiresAt: expiry)
                    }
                    guard let entry else { return nil }
                    do {
                        return try PreparedVariant.stored(entry, outcome: outcome)
                    } catch let error as ImgCacheError where error.isDamagedImage {
                        _ = try diskCache.remove(key: plan.variantKey)
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
}

extension PreparedVariant {
    /// This variant with `seconds` spent loading the original.
    func loaded(in seconds: Double) -> PreparedVariant {
        var timings = self.timings
        timings.loading = seconds
        return PreparedVariant(
            format: format, pixelSize: pixelSize, frameCount: frameCount, byteCount: byteCount, fileURL: fileURL,
            unstoredData: unstoredData, source: source, cacheOutcome: cacheOutcome, timings: timings, image: image)
    }
}
