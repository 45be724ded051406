import Foundation
import Synchronization

/// Takes a URL and a target and returns a pixel-exact, memory-bounded image: from the memory
/// cache, the disk cache, the shared tiers (the Redis tier when configured, then
/// `Configuration.tiers`), a revalidated original or the network, in that order.
///
/// It composes stages, each a type of its own: `OriginalStore` (the caches and the origin, with
/// leases on a shared tier), `VariantStore` (stored variants), `VariantRenderer` (decoding and
/// encoding under the decode limits) and `VariantPreparer`, which runs them for a request.
/// Identical requests in flight share one fetch and one decode, at the highest priority among
/// them; a request's cancellation cancels the shared work only when every request waiting on it
/// has cancelled. Downloads and decodes each run under their own concurrency limit, higher
/// priorities first. Everything that blocks (the disk cache's SQLite index and files, Redis,
/// decoding, encoding) runs on threads of the pipeline's own, never on the cooperative pool.
///
/// Call `shutdown()` when done with a pipeline, before the process exits: it lets the calls in
/// flight finish, then ends the pipeline's threads and closes its cache index and Redis
/// connections. A pipeline released without it closes them when the last task holding it ends,
/// but its threads may still be ending when the process exits.
public final class ImagePipeline: Sendable {
    /// The configuration the pipeline was made with.
    public let configuration: Configuration
    /// The disk cache holding originals (key: see `Configuration.keyPolicy`) and variants (see
    /// `VariantKey`).
    public let diskCache: DiskCache
    let memoryCache: MemoryCache<String, ImageResponse>
    /// Responses with pixels, shared by identical `image(for:)` calls in flight.
    let images = TaskCoalescer<String, ImageResponse>()
    /// Variants made ready (found, or rendered and stored), keyed by work key.
    let variants = TaskCoalescer<String, PreparedVariant>()
    let preparer: VariantPreparer
    /// Where the stored variants found or rendered lately are (see `storedSummary(for:)`).
    let remembered: RememberedVariants
    /// The image facts of stored variants (see `facts(for:)`).
    let factsStore: FactsStore
    /// Runs the blocking work: one thread per concurrent decode, and two more for cache and file
    /// I/O while decodes keep the others busy. The shared tiers' calls have threads of their own
    /// (`SharedTiers.io`).
    let blocking: BlockingPool
    let shared: SharedTiers
    /// The shared Redis tier, nil when `configuration.redis` is.
    let redis: RedisTier?
    /// The loader the pipeline made (when `configuration.dataLoader` is nil), which its
    /// `shutdown()` shuts down too; a loader of the caller's stays the caller's.
    let ownLoader: DataLoader?
    /// Refuses calls once `shutdown()` has begun, and counts the calls in flight until then.
    let lifecycle = PipelineLifecycle()
    /// The work of the first `shutdown()` call, which later calls wait for.
    let ending = Mutex<Task<Void, Never>?>(nil)
    /// What the pipeline did: requests by outcome, errors by kind, origin requests, bytes
    /// downloaded, the Redis tier's counters, and how long each stage took; as a snapshot or as
    /// Prometheus text.
    public let metrics: PipelineMetrics

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
        let ownLoader = configuration.dataLoader == nil ? DataLoader(configuration: loading) : nil
        let loader = configuration.dataLoader ?? ownLoader!
        let blocking = BlockingPool(threadCount: configuration.maxConcurrentDecodes + 2, name: "imgcache")
        let redis = configuration.redis.map { RedisTier(configuration: $0, log: configuration.log) }
        // One thread per download at once: each may wait on a shared tier (a lease, a lookup).
        let shared = SharedTiers(
            tiers: (redis.map { [$0] } ?? []) + configuration.tiers,
            io: BlockingPool(threadCount: configuration.maxConcurrentLoads, name: "imgcache-tiers"))
        let leases = FleetLeases(io: shared.io)
        var redisCounters: (@Sendable () -> RedisTierCounters?)?
        if let redis { redisCounters = { redis.counters } }
        let metrics = PipelineMetrics(redisCounters: redisCounters)
        preparer = VariantPreparer(
            originals: OriginalStore(
                disk: diskCache, shared: shared, loader: loader,
                loads: AsyncLimiter(capacity: configuration.maxConcurrentLoads), blocking: blocking, leases: leases,
                metrics: metrics),
            variants: VariantStore(disk: diskCache, shared: shared, blocking: blocking, leases: leases),
            renderer: VariantRenderer(
                decodes: AsyncLimiter(capacity: configuration.maxConcurrentDecodes),
                decodeMemory: AsyncLimiter(capacity: configuration.decodingMemoryBytes), blocking: blocking,
                limits: configuration.limits, passBudget: configuration.renderPassBudgetBytes, metrics: metrics),
            blocking: blocking)
        remembered = RememberedVariants(limit: configuration.rememberedVariantLimit, disk: diskCache, blocking: blocking)
        factsStore = FactsStore(disk: diskCache, blocking: blocking)
        self.metrics = metrics
        self.blocking = blocking
        self.shared = shared
        self.redis = redis
        self.ownLoader = ownLoader
    }

    /// What keeps the pipeline from serving, checked on its own threads: it is shut down, the
    /// disk cache's index does not answer a lookup, or a configured Redis does not answer a
    /// `PING`. Empty when healthy. For a server's health check.
    public func healthProblems() async -> [String] {
        (try? await lifecycle.call { await problems() }) ?? ["the pipeline is shut down"]
    }

    private func problems() async -> [String] {
        var problems: [String] = []
        let disk = diskCache
        do {
            _ = try await blocking.run { try disk.entry(for: "imgcache-health-check") }
        } catch {
            problems.append("the cache does not answer: \(error)")
        }
        if let redis, (try? await shared.io.run { redis.answers() }) != true {
            problems.append("Redis does not answer at \(redis.configuration.displayURL)")
        }
        return problems
    }

    /// What this pipeline's Redis tier did so far; nil without a tier.
    public var redisCounters: RedisTierCounters? { redis?.counters }

    /// Adds this pipeline's Redis counters not yet in `imgcache:stats` (they otherwise go with its
    /// next Redis command, or with `shutdown()`), on a tier thread. Nothing without a tier or
    /// once the pipeline is shut down.
    public func flushRedisCounters() async {
        guard let redis else { return }
        _ = try? await shared.io.run { redis.flushCounters() }
    }

    /// The prepared image for `request`, with its pixels. A variant rendered now carries the pixels
    /// it was encoded from; one found in the disk cache is decoded from its file. For progress,
    /// events and a priority that changes while the request waits, use `task(for:)`.
    public func image(for request: ImageRequest) async throws -> ImageResponse {
        try await response(for: request, context: WorkContext(priority: request.priority))
    }

    /// Prepares the variant for `request` as `image(for:)` does (fetching, rendering and storing it
    /// when needed) and returns where it is and what it holds, without its pixels: a variant
    /// already in the cache is not decoded, and one the pipeline remembers (see
    /// `storedSummary(for:)`) costs a `stat`. For callers that need only the file.
    public func prepare(_ request: ImageRequest) async throws -> ImageSummary {
        try await counted { [self] start in
            let plan = try RequestPlan(request, configuration)
            if let known = knownSummary(plan, start: start) { return known }
            let context = WorkContext(priority: request.priority)
            let prepared = try await variants(for: [plan], keepsPixels: false, context: context)[plan.workKey]!.get()
            return prepared.summary(for: request, variantKey: plan.variantKey, scale: plan.scale, total: Self.seconds(since: start))
        } outcome: { $0.cacheOutcome }
    }

    /// The summary of the variant for `request` when it is at hand: in the memory cache, or stored
    /// and remembered (found or rendered lately, see `Configuration.rememberedVariantLimit`),
    /// fresh, and its file unchanged since. Nil otherwise, for a request that reloads or is not
    /// valid (then call `prepare(_:)`), and once `shutdown()` has begun. Never waits (a remembered variant costs a `stat`), so
    /// an event loop can answer from it; counted in `metrics` as `prepare` would count it.
    public func storedSummary(for request: ImageRequest) -> ImageSummary? {
        let start = DispatchTime.now()
        guard lifecycle.isOpen, let plan = try? RequestPlan(request, configuration),
              let known = knownSummary(plan, start: start)
        else {
            return nil
        }
        metrics.requestStarted()
        metrics.requestFinished(outcome: known.cacheOutcome, seconds: Self.seconds(since: start))
        return known
    }

    /// Whether the stored variant `variantKey` names (the `variantKey` of a summary
    /// `storedSummary(for:)` returned) may be served again now without asking for it again: the
    /// pipeline still remembers it, it is fresh, and its file at `path` (the summary's `fileURL`'s
    /// path) is at `version` now (one `stat`). True counts a request answered from the disk in
    /// `metrics`, as `storedSummary(for:)` would, and stamps the read; false (nothing counted)
    /// means ask `storedSummary(for:)` (always false once `shutdown()` has begun). Never waits. For a caller that keeps its answers under a
    /// key of its own (a server's answer for a URL path): it skips resolving the request and its
    /// cache keys.
    public func isStoredVariantCurrent(variantKey: String, path: String, version: StoredFileVersion) -> Bool {
        let start = DispatchTime.now()
        guard lifecycle.isOpen, remembered.isCurrent(variantKey, path: path, version: version) else { return false }
        metrics.requestStarted()
        metrics.requestFinished(outcome: .disk, seconds: Self.seconds(since: start))
        return true
    }

    /// The summary from the memory cache or a remembered stored variant, unless the request reloads.
    private func knownSummary(_ plan: RequestPlan, start: DispatchTime) -> ImageSummary? {
        if let cached = memoryHit(plan) {
            return cached.served(for: plan.request, outcome: .memory, total: Self.seconds(since: start)).summary
        }
        guard plan.request.cachePolicy != .reload, let stored = remembered.variant(for: plan.variantKey) else { return nil }
        return stored.summary(for: plan.request, variantKey: plan.variantKey, scale: plan.scale, total: Self.seconds(since: start))
    }

    /// A handle on `request` being prepared, with its pixels as `image(for:)` gives them: its
    /// priority can be changed while it waits, it can be cancelled, and it reports its progress
    /// and events. It starts at once.
    public func task(for request: ImageRequest) -> ImageTask {
        ImageTask(request: request) { [self] context in try await response(for: request, context: context) }
    }

    /// The bytes at `url` (a JSON feed a widget polls, say), through the caches and HTTP
    /// revalidation, saying whether they changed since the last stored copy so that a caller can
    /// skip work when nothing did. The first fetch of a URL counts as changed. Its key follows
    /// `Configuration.keyPolicy`.
    public func data(for url: URL) async throws -> DataResult {
        try await lifecycle.call { try await fetchData(for: url) }
    }

    private func fetchData(for url: URL) async throws -> DataResult {
        try RequestPlan.checkURL(url, loading: configuration.loading)
        let request = OriginalRequest(
            url: url, key: configuration.keyPolicy.key(for: url), headers: [:], policy: .useCache, storage: .all,
            requiresImage: false)
        let context = WorkContext(priority: .normal)
        let fetched = try await preparer.originalFetches.value(for: request.coalescingKey, context: context) {
            [preparer] shared in try await preparer.originals.fetch(request, context: shared)
        }
        let copy = fetched.copy
        let data = try await blocking.run { try copy.data() }
        return DataResult(
            url: url, data: data, changed: fetched.changed, cacheOutcome: fetched.outcome, contentType: copy.contentType)
    }

    /// `image(for:)` on behalf of a caller whose context is `context`.
    func response(for request: ImageRequest, context: WorkContext) async throws -> ImageResponse {
        try await counted { [self] start in
            let plan = try RequestPlan(request, configuration)
            if let cached = memoryHit(plan) {
                return cached.served(for: request, outcome: .memory, total: Self.seconds(since: start))
            }
            let response = try await images.value(for: plan.workKey, context: context) { [self] shared in
                try await preparedResponse(plan, context: shared)
            }
            return response.served(for: request, outcome: response.cacheOutcome, total: Self.seconds(since: start))
        } outcome: { $0.cacheOutcome }
    }

    /// `work` (given its start) as a call of the pipeline's lifecycle (`shutDown` once the
    /// pipeline is), counted in the metrics: in flight while it runs, then by the outcome
    /// `outcome` reads from its result, or by its error.
    func counted<Value: Sendable>(
        _ work: (DispatchTime) async throws -> Value, outcome: (Value) -> CacheOutcome
    ) async throws -> Value {
        let start = DispatchTime.now()
        metrics.requestStarted()
        do {
            let value = try await lifecycle.call { try await work(start) }
            metrics.requestFinished(outcome: outcome(value), seconds: Self.seconds(since: start))
            return value
        } catch {
            metrics.requestFailed(error, seconds: Self.seconds(since: start))
            throw error
        }
    }

    /// The memory cache's image for `plan`, unless the request reloads.
    private func memoryHit(_ plan: RequestPlan) -> ImageResponse? {
        plan.request.cachePolicy == .reload ? nil : memoryCache.value(for: plan.variantKey)
    }

    /// The variants for `plans`, which share one original and one policy, keyed by work key.
    /// Variants in flight are joined; the others are made ready together.
    func variants(for plans: [RequestPlan], keepsPixels: Bool, context: WorkContext) async -> VariantPreparer.Results {
        let byKey = Dictionary(plans.map { ($0.workKey, $0) }, uniquingKeysWith: { first, _ in first })
        let results = await variants.values(for: Array(byKey.keys), context: context) { [preparer] keys, shared in
            await preparer.makeReady(keys.compactMap { byKey[$0] }, keepsPixels: keepsPixels, context: shared)
        }
        for plan in byKey.values where plan.request.storage != .none {
            if case .success(let variant)? = results[plan.workKey] { remembered.remember(variant, for: plan.variantKey) }
        }
        return results
    }

    /// The response for `plan` once the memory cache missed: the variant made ready, with the pixels
    /// it was rendered from or else decoded from its file. A stored file that no longer decodes
    /// (damaged behind the cache's back, or taken so from a shared tier) is removed, from the
    /// shared tiers too, and rendered again, once.
    private func preparedResponse(_ plan: RequestPlan, context: WorkContext) async throws -> ImageResponse {
        var attempt = 1
        while true {
            let prepared = try await variants(for: [plan], keepsPixels: true, context: context)[plan.workKey]!.get()
            var timings = prepared.timings
            let image: DecodedImage
            do {
                if let pixels = prepared.image {
                    image = pixels
                } else {
                    let decodeStart = DispatchTime.now()
                    image = try await preparer.renderer.decodeStored(prepared.encoded, context: context)
                    timings.decoding = Self.seconds(since: decodeStart)
                }
            } catch let error as ImgCacheError where attempt == 1 && prepared.fileURL != nil && error.isDamagedImage {
                remembered.forget(plan.variantKey)
                await preparer.variants.discard(plan)
                attempt += 1
                continue
            }
            let response = ImageResponse(
                request: plan.request, image: image, scale: plan.scale, format: prepared.format,
                byteCount: prepared.byteCount, fileURL: prepared.fileURL, unstoredData: prepared.unstoredData,
                source: prepared.source, cacheOutcome: prepared.cacheOutcome, timings: timings,
                variantKey: plan.variantKey)
            if plan.request.storage != .none { _ = memoryCache.set(response, for: plan.variantKey, cost: image.byteCount) }
            return response
        }
    }

    static func seconds(since start: DispatchTime) -> Double {
        seconds(from: start, to: DispatchTime.now())
    }

    static func seconds(from start: DispatchTime, to end: DispatchTime) -> Double {
        Double(end.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
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
            unstoredData: unstoredData, source: outcome == .memory ? nil : source, cacheOutcome: outcome, timings: timings,
            variantKey: variantKey)
    }
}
