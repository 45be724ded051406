import Foundation

/// Takes a URL and a target and returns a pixel-exact, memory-bounded image: from the memory
/// cache, the disk cache, the shared Redis tier (when configured), a revalidated original or the
/// network, in that order.
///
/// Identical requests in flight share one fetch and one decode; a request's cancellation cancels the
/// shared work only when every request waiting on it has cancelled. Downloads and decodes each run
/// under their own concurrency limit. Everything that blocks (the disk cache's SQLite index and
/// files, decoding, encoding) runs on threads of the pipeline's own, never on the cooperative pool.
public final class ImagePipeline: Sendable {
    public let configuration: Configuration
    /// The disk cache holding originals (key: the URL string) and variants (see `VariantKey`).
    public let diskCache: DiskCache
    let memoryCache: MemoryCache<String, ImageResponse>
    /// Responses with pixels, shared by identical `image(for:)` calls in flight.
    let images = TaskCoalescer<String, ImageResponse>()
    /// Variants made ready (found, or rendered and stored), keyed by variant key.
    let variants = TaskCoalescer<String, PreparedVariant>()
    let originals = TaskCoalescer<String, OriginalFetch>()
    let loader: any DataLoading
    let loads: AsyncLimiter
    let decodes: AsyncLimiter
    /// Bytes the decodes running at once may hold, by the estimate from each source's header.
    let decodeMemory: AsyncLimiter
    /// Runs the blocking work: one thread per concurrent decode, and two more for cache and file
    /// I/O while decodes keep the others busy.
    let blocking: BlockingPool
    /// The shared Redis tier, nil when `configuration.redis` is.
    let redis: RedisTier?

    /// Opens the disk cache and prepares the pipeline; throws `invalidArgument` for a setting out
    /// of its range, and when the cache folder cannot be used.
    public init(configuration: Configuration = Configuration()) throws {
        try configuration.validate()
        self.configuration = configuration
        diskCache = try DiskCache(configuration: configuration.diskCache)
        memoryCache = MemoryCache(costLimit: configuration.memoryCacheLimit)
        // Large downloads are written to the cache's tmp/ as they arrive, to be moved into place.
        var loading = configuration.loading
        if loading.spillFolder == nil { loading.spillFolder = diskCache.temporaryFolder }
        loader = configuration.dataLoader ?? DataLoader(configuration: loading)
        loads = AsyncLimiter(capacity: configuration.maxConcurrentLoads)
        decodes = AsyncLimiter(capacity: configuration.maxConcurrentDecodes)
        decodeMemory = AsyncLimiter(capacity: configuration.decodingMemoryBytes)
        blocking = BlockingPool(threadCount: configuration.maxConcurrentDecodes + 2, name: "imgcache")
        redis = configuration.redis.map { RedisTier(configuration: $0, log: configuration.log) }
    }

    /// What this pipeline's Redis tier did so far; nil without a tier.
    public var redisCounters: RedisTierCounters? { redis?.counters }

    /// Adds this pipeline's Redis counters not yet in `imgcache:stats` (they otherwise go with its
    /// next Redis command), on a blocking thread; for a process about to exit. Nothing without
    /// a tier.
    public func flushRedisCounters() async {
        guard let redis else { return }
        _ = try? await blocking.run { redis.flushCounters() }
    }

    /// The prepared image for `request`, with its pixels. A variant rendered now carries the pixels
    /// it was encoded from; one found in the disk cache is decoded from its file.
    public func image(for request: ImageRequest) async throws -> ImageResponse {
        let start = DispatchTime.now()
        let plan = try Plan(request, configuration)
        if let cached = memoryCache.value(for: plan.variantKey) {
            return cached.served(for: request, outcome: .memory, total: Self.seconds(since: start))
        }
        let response = try await images.value(for: plan.variantKey) { [self] in try await preparedResponse(plan) }
        return response.served(for: request, outcome: response.cacheOutcome, total: Self.seconds(since: start))
    }

    /// Prepares the variant for `request` as `image(for:)` does (fetching, rendering and storing it
    /// when needed) and returns where it is and what it holds, without its pixels: a variant
    /// already in the cache is not decoded. For callers that need only the file.
    public func prepare(_ request: ImageRequest) async throws -> ImageSummary {
        let start = DispatchTime.now()
        let plan = try Plan(request, configuration)
        if let cached = memoryCache.value(for: plan.variantKey) {
            return cached.served(for: request, outcome: .memory, total: Self.seconds(since: start)).summary
        }
        let prepared = try await variants(for: [plan], keepsPixels: false)[plan.variantKey]!.get()
        return prepared.summary(for: request, scale: plan.scale, total: Self.seconds(since: start))
    }

    /// The response for `plan` once the memory cache missed: the variant made ready, with the pixels
    /// it was rendered from or else decoded from its file. A stored file that no longer decodes
    /// (damaged behind the cache's back) is removed and rendered again, once.
    private func preparedResponse(_ plan: Plan) async throws -> ImageResponse {
        var attempt = 1
        while true {
            let prepared = try await variants(for: [plan], keepsPixels: true)[plan.variantKey]!.get()
            var timings = prepared.timings
            let image: DecodedImage
            do {
                if let pixels = prepared.image {
                    image = pixels
                } else {
                    let decodeStart = DispatchTime.now()
                    image = try await decodeStored(prepared.encoded)
                    timings.decoding = Self.seconds(since: decodeStart)
                }
            } catch let error as ImgCacheError where attempt == 1 && prepared.fileURL != nil && error.isDamagedImage {
                try await blocking.run { [diskCache] in _ = try diskCache.remove(key: plan.variantKey) }
                attempt += 1
                continue
            }
            let response = ImageResponse(
                request: plan.request, image: image, scale: plan.scale, format: prepared.format,
                byteCount: prepared.byteCount, fileURL: prepared.fileURL, unstoredData: prepared.unstoredData,
                source: prepared.source, cacheOutcome: prepared.cacheOutcome, timings: timings)
            _ = memoryCache.set(response, for: plan.variantKey, cost: image.byteCount)
            return response
        }
    }

    /// A stored variant decoded as it is: its size, every frame it holds, its pixels as stored
    /// (a variant kept with its profile is not converted when read back).
    private func decodeStored(_ source: ImageSource) async throws -> DecodedImage {
        let options = DecodingOptions(
            maxFrames: DecodingOptions.frameCounts.upperBound, frameBudgetBytes: DecodingOptions.frameBudgets.upperBound,
            limits: configuration.limits, colorPolicy: .keep)
        let cost = try await decodeCost(source, [options])
        return try await decodeMemory.run(cost: cost) { [decodes, blocking] in
            try await decodes.run {
                try await blocking.run { try ImageDecoder.decode(source, options: options) }
            }
        }
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}

extension ImgCacheError {
    /// True for the errors a damaged image file gives: not an image, or a corrupt one.
    var isDamagedImage: Bool {
        switch self {
        case .corruptImage, .unsupportedFormat: return true
        default: return false
        }
    }
}

extension ImageResponse {
    /// This response handed to another caller of the same work, with that caller's request, outcome
    /// and total time.
    func served(for request: ImageRequest, outcome: CacheOutcome, total: Double) -> ImageResponse {
        var timings = self.timings
        timings.total = total
        if outcome == .memory { timings = ImageTimings(total: total) }
        return ImageResponse(
            request: request, image: image, scale: scale, format: format, byteCount: byteCount, fileURL: fileURL,
            unstoredData: unstoredData, source: outcome == .memory ? nil : source, cacheOutcome: outcome, timings: timings)
    }
}
