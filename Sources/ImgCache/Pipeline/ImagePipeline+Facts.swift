extension ImagePipeline {
    /// The variant `request` prepares and the facts of its first frame (see `ImageFacts`; a
    /// BlurHash of 4 x 3 components).
    ///
    /// Facts are computed once per variant, on the pipeline's threads, and kept in memory and in
    /// the disk cache beside the variant (removed with its original), for the variant file they
    /// were computed from: a later call costs what `prepare(_:)` costs and a `stat` (a variant
    /// written again since has its facts computed again). A variant rendered for the call gives
    /// its pixels before they are encoded (no decode: the facts add about a millisecond for a
    /// widget); one found stored is decoded once. A variant the server forbade storing has its
    /// facts computed on each call. Counted in `metrics` as the requests `prepare(_:)` and
    /// `image(for:)` make.
    public func facts(for request: ImageRequest) async throws -> VariantFacts {
        let plan = try RequestPlan(request, configuration)
        if request.cachePolicy != .reload, let stored = await factsStore.stored(plan.variantKey) {
            let summary = try await prepare(request)
            if let path = summary.fileURL?.path, stored.describes(path: path) {
                return VariantFacts(summary: summary, facts: stored.facts)
            }
        }
        return try await factsStore.inFlight.value(for: plan.variantKey, context: WorkContext(priority: request.priority)) {
            [self] context in
            let response = try await response(for: request, context: context)
            guard let bitmap = response.image.frames.first?.bitmap else {
                throw ImgCacheError.corruptImage(format: response.format, detail: "the variant holds no frame")
            }
            let facts = try await blocking.run { try ImageFacts(of: bitmap) }
            await factsStore.keep(facts, for: plan.variantKey, path: response.fileURL?.path, originalKey: plan.originalKey)
            return VariantFacts(summary: response.summary, facts: facts)
        }
    }
}
