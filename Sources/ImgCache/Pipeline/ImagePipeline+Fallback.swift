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
