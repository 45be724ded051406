extension ImagePipeline {
    /// Prepares `request` as `prepare(_:)` does; when its source fails in a way the fallback
    /// stands in for (`ImageFallback.covers`), prepares `fallback`'s image with the same options
    /// instead (`ImageFallback.request(for:)`) and says why. The fallback's original is fetched
    /// once and cached under its own key, and each set of options renders its variant once, under
    /// a key of the fallback's URL and those options: nothing is stored under the source's key, so
    /// the source is asked for again by the next request. Both attempts count in `metrics`.
    /// - Throws: the source's error when the fallback does not cover it, else the fallback's own.
    public func prepare(_ request: ImageRequest, fallback: ImageFallback) async throws -> FallbackSummary {
        do {
            return FallbackSummary(summary: try await prepare(request), sourceFailure: nil)
        } catch let failure as ImgCacheError where ImageFallback.covers(failure) {
            let summary = try await prepare(fallback.request(for: request))
            return FallbackSummary(summary: summary, sourceFailure: failure)
        }
    }
}

extension ImagePipeline {
    /// Prefetches `requests` as `prefetch(_:progress:)` does (`progress` follows the sources),
    /// then prepares `fallback`'s image in place of each request whose source failed in a way it
    /// covers, with that request's options: the fallback's original is fetched once for all, and
    /// each option set rendered once. Each result is the source's variant, the fallback's with the
    /// source's failure, or the error (the source's when the fallback does not cover it, else the
    /// fallback's own), in the order of `requests`.
    public func prefetch(
        _ requests: [ImageRequest], fallback: ImageFallback,
        progress: @escaping @Sendable (Int, Result<ImageSummary, any Error>) -> Void = { _, _ in }
    ) async -> [Result<FallbackSummary, any Error>] {
        let sources = await prefetch(requests, progress: progress)
        var results = sources.map { $0.map { FallbackSummary(summary: $0) } }
        let failed = sources.indices.compactMap { index -> (index: Int, failure: ImgCacheError)? in
            guard case .failure(let error as ImgCacheError) = sources[index], ImageFallback.covers(error) else { return nil }
            return (index, error)
        }
        let fallbacks = await prefetch(failed.map { fallback.request(for: requests[$0.index]) })
        for (source, result) in zip(failed, fallbacks) {
            results[source.index] = result.map { FallbackSummary(summary: $0, sourceFailure: source.failure) }
        }
        return results
    }
}
