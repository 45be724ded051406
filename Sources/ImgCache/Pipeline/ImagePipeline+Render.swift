import Synchronization
import Foundation

extension ImagePipeline {
    /// One variant encoded, before it is stored.
    private struct Encoded: Sendable {
        let plan: Plan
        let data: Data
        let format: ImageFormat
        let size: PixelSize
        let frameCount: Int
        /// What the decode learned of the original.
        let info: ImageInfo
        /// The frames encoded (all of them for GIF, the first otherwise), when they are kept.
        let image: DecodedImage?
    }

    /// Decodes the original once for every plan (once per DCT scale for JPEG, in passes that bound
    /// the pixels held), encodes each variant, and stores them beside the original (not when the
    /// original was not stored: the server forbade it), and in the Redis tier when there is one. An original that turns out not to decode
    /// is removed from the cache.
    func render(_ original: OriginalFetch, _ plans: [Plan], keepsPixels: Bool) async -> VariantResults {
        let work: (encoded: [Encoded], decoding: Double, encoding: Double)
        let passBudget = configuration.renderPassBudgetBytes
        do {
            let cost = try await decodeCost(original.source, plans.map(\.options))
            work = try await decodeMemory.run(cost: cost) { [decodes, blocking] in
                try await decodes.run {
                    try await blocking.run {
                        try Self.decodeAndEncode(original.source, plans, keepsPixels: keepsPixels, passBudget: passBudget)
                    }
                }
            }
        } catch {
            if let error = error as? ImgCacheError, case .corruptImage = error, original.entry != nil {
                _ = try? await blocking.run { [diskCache] in try diskCache.remove(key: plans[0].originalKey, cascadeVariants: true) }
            }
            return Dictionary(uniqueKeysWithValues: plans.map { ($0.variantKey, .failure(error)) })
        }
        let storeStart = DispatchTime.now()
        let stored: [Result<CacheEntry?, any Error>]
        do {
            stored = try await blocking.run { [diskCache] in
                work.encoded.map { encoded in
                    Result {
                        // Not stored when the original was not, or when the variant alone is over
                        // the cache's whole size limit.
                        guard original.entry != nil, encoded.data.count <= diskCache.configuration.sizeLimit else { return nil }
                        return try diskCache.store(
                            encoded.data, for: encoded.plan.variantKey, kind: .variant(of: encoded.plan.originalKey),
                            format: encoded.format, contentType: encoded.format.mimeType, expiresAt: original.expiresAt)
                    }
                }
            }
        } catch {
            return Dictionary(uniqueKeysWithValues: plans.map { ($0.variantKey, .failure(error)) })
        }
        if let redis = redisTier(for: plans[0].request.url) {
            for (encoded, entry) in zip(work.encoded, stored) {
                guard case .success(let entry?) = entry else { continue }
                await share(encoded.data, entry, under: RedisTier.variantKey(encoded.plan.variantKey), redis)
            }
        }
        // Each variant's share of the work done for all of them.
        let share = 1 / Double(plans.count)
        let timings = ImageTimings(
            decoding: work.decoding * share, encoding: (work.encoding + Self.seconds(since: storeStart)) * share)
        var results: VariantResults = [:]
        for (encoded, entry) in zip(work.encoded, stored) {
            results[encoded.plan.variantKey] = entry.map { entry in
                PreparedVariant(
                    format: encoded.format, pixelSize: encoded.size, frameCount: encoded.frameCount,
                    byteCount: encoded.data.count, fileURL: entry?.fileURL, unstoredData: entry == nil ? encoded.data : nil,
                    source: (encoded.info.format, encoded.info.sourceSize), cacheOutcome: original.outcome,
                    timings: timings, image: encoded.image)
            }
        }
        return results
    }

    /// Decodes `source` for every plan and encodes each result as soon as its pass ends; returns
    /// the encoded variants in plan order and the seconds spent decoding and encoding.
    private static func decodeAndEncode(
        _ source: ImageSource, _ plans: [Plan], keepsPixels: Bool, passBudget: Int
    ) throws -> (encoded: [Encoded], decoding: Double, encoding: Double) {
        let start = DispatchTime.now()
        // Encodes of one pass run concurrently: results and encoding time are gathered under a lock.
        let results = Mutex((encoded: [Encoded?](repeating: nil, count: plans.count), encoding: 0.0))
        try ImageDecoder.decode(source, targets: plans.map(\.options), passBudgetBytes: passBudget) { index, image in
            let encodeStart = DispatchTime.now()
            let (data, format) = try plans[index].encode(image)
            var kept = image
            if format != .gif { kept.frames = [image.frames[0]] }
            let variant = Encoded(
                plan: plans[index], data: data, format: format, size: image.size, frameCount: kept.frames.count,
                info: image.info, image: keepsPixels ? kept : nil)
            let seconds = seconds(since: encodeStart)
            results.withLock { results in
                results.encoded[index] = variant
                results.encoding += seconds
            }
        }
        let (encoded, encoding) = results.withLock { ($0.encoded.map { $0! }, $0.encoding) }
        // Encoding time is summed over threads: decoding is what the wall time leaves.
        return (encoded, max(0, seconds(since: start) - encoding), encoding)
    }
}
