import Foundation

extension ImagePipeline {
    /// The work behind `image(for:)` once the memory cache missed; shared by identical requests.
    func prepare(_ plan: Plan) async throws -> ImageResponse {
        var timings = ImageTimings()
        if let variant = try diskCache.entry(for: plan.variantKey), !variant.isExpired(),
           let response = try await serveIfIntact(variant, plan, outcome: .disk, timings: timings) {
            return response
        }
        let loadStart = DispatchTime.now()
        let original = try await originals.value(for: plan.originalKey) { [self] in
            try await fetchOriginal(plan.request.url) { data in _ = try ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)) }
        }
        timings.loading = Self.seconds(since: loadStart)
        if !original.changed, original.entry != nil, let variant = try diskCache.entry(for: plan.variantKey) {
            // The original is the one the variant was rendered from: the variant stays, fresh again.
            let refreshed = try diskCache.refresh(for: plan.variantKey, expiresAt: original.expiresAt) ?? variant
            let outcome: CacheOutcome = original.outcome == .disk ? .disk : .revalidated
            if let response = try await serveIfIntact(refreshed, plan, outcome: outcome, timings: timings) {
                return response
            }
        }
        return try await render(original, plan, timings: timings)
    }

    /// Options that decode a stored variant as it is: its size, every frame it holds.
    private var storedVariantOptions: DecodingOptions {
        DecodingOptions(maxFrames: Int.max, frameBudgetBytes: Int.max, limits: configuration.limits)
    }

    /// `serve`, or nil after removing the variant when its file no longer decodes (damaged on disk
    /// behind the cache's back), so that it is rendered again.
    private func serveIfIntact(_ variant: CacheEntry, _ plan: Plan, outcome: CacheOutcome, timings: ImageTimings)
        async throws -> ImageResponse?
    {
        do {
            return try await serve(variant, plan, outcome: outcome, timings: timings)
        } catch let error as ImgCacheError {
            switch error {
            case .corruptImage, .unsupportedFormat:
                _ = try diskCache.remove(key: plan.variantKey)
                return nil
            default:
                throw error
            }
        }
    }

    /// A stored variant, decoded as it is (it already has the target size).
    private func serve(_ variant: CacheEntry, _ plan: Plan, outcome: CacheOutcome, timings: ImageTimings) async throws
        -> ImageResponse
    {
        var timings = timings
        let decodeStart = DispatchTime.now()
        let options = storedVariantOptions
        let image = try await decodes.run { try ImageDecoder.decode(.file(path: variant.fileURL.path), options: options) }
        timings.decoding = Self.seconds(since: decodeStart)
        let response = ImageResponse(
            request: plan.request, image: image, scale: plan.scale, format: image.info.format, byteCount: variant.byteCount,
            fileURL: variant.fileURL, unstoredData: nil, source: nil, cacheOutcome: outcome, timings: timings)
        _ = memoryCache.set(response, for: plan.variantKey, cost: image.byteCount)
        return response
    }

    /// Decodes the original to the target, encodes the variant and stores it beside the original.
    /// Lossy variants (GIF, JPEG) are decoded back, so a response has the pixels the cache holds.
    /// An original that turns out not to decode is removed from the cache.
    private func render(_ original: OriginalFetch, _ plan: Plan, timings: ImageTimings) async throws -> ImageResponse {
        var timings = timings
        let rendered: (image: DecodedImage, data: Data, format: ImageFormat, decoding: Double, encoding: Double)
        do {
            rendered = try await decodes.run {
                let decodeStart = DispatchTime.now()
                let decoded = try ImageDecoder.decode(original.source, options: plan.options)
                let decoding = Self.seconds(since: decodeStart)
                let encodeStart = DispatchTime.now()
                let format = plan.outputFormat(for: decoded)
                let data = try plan.encode(decoded, as: format)
                var image = decoded
                if format != .png {
                    let stored = try ImageDecoder.decode(.data(data), options: storedVariantOptions)
                    image.frames = stored.frames
                }
                return (image, data, format, decoding, Self.seconds(since: encodeStart))
            }
        } catch let error as ImgCacheError {
            if case .corruptImage = error, original.entry != nil {
                _ = try? diskCache.remove(key: plan.originalKey, cascadeVariants: true)
            }
            throw error
        }
        timings.decoding = rendered.decoding
        let storeStart = DispatchTime.now()
        var variant: CacheEntry?
        if original.entry != nil {
            variant = try diskCache.store(
                rendered.data, for: plan.variantKey, kind: .variant(of: plan.originalKey), format: rendered.format,
                contentType: rendered.format.mimeType, expiresAt: original.expiresAt)
        }
        timings.encoding = rendered.encoding + Self.seconds(since: storeStart)
        let response = ImageResponse(
            request: plan.request, image: rendered.image, scale: plan.scale, format: rendered.format,
            byteCount: rendered.data.count, fileURL: variant?.fileURL, unstoredData: variant == nil ? rendered.data : nil,
            source: (rendered.image.info.format, rendered.image.info.sourceSize), cacheOutcome: original.outcome,
            timings: timings)
        _ = memoryCache.set(response, for: plan.variantKey, cost: rendered.image.byteCount)
        return response
    }
}
