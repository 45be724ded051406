import Foundation

/// Takes a URL and a target and returns a pixel-exact, memory-bounded image: from the memory
/// cache, the disk cache, a revalidated original or the network, in that order.
///
/// Identical requests in flight share one fetch and one decode; a request's cancellation cancels the
/// shared work only when every request waiting on it has cancelled. Downloads and decodes each run
/// under their own concurrency limit.
public final class ImagePipeline: Sendable {
    public let configuration: Configuration
    /// The disk cache holding originals (key: the URL string) and variants (see `VariantKey`).
    public let diskCache: DiskCache
    let memoryCache: MemoryCache<String, ImageResponse>
    let images = TaskCoalescer<String, ImageResponse>()
    let originals = TaskCoalescer<String, OriginalFetch>()
    let loader: any DataLoading
    let loads: AsyncLimiter
    let decodes: AsyncLimiter

    /// Opens the disk cache and prepares the pipeline; throws when the cache folder cannot be used.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        diskCache = try DiskCache(configuration: configuration.diskCache)
        memoryCache = MemoryCache(costLimit: configuration.memoryCacheLimit)
        loader = configuration.dataLoader ?? DataLoader(configuration: configuration.loading)
        loads = AsyncLimiter(limit: configuration.maxConcurrentLoads)
        decodes = AsyncLimiter(limit: configuration.maxConcurrentDecodes)
    }

    /// The prepared image for `request`.
    public func image(for request: ImageRequest) async throws -> ImageResponse {
        let start = DispatchTime.now()
        let plan = try Plan(request, configuration)
        if let cached = memoryCache.value(for: plan.variantKey) {
            return cached.served(for: request, outcome: .memory, total: Self.seconds(since: start))
        }
        let response = try await images.value(for: plan.variantKey) { [self] in try await prepare(plan) }
        return response.served(for: request, outcome: response.cacheOutcome, total: Self.seconds(since: start))
    }

    /// Prepares `requests` concurrently (within the pipeline's limits) so that later `image(for:)`
    /// calls hit the cache, calling `progress` after each with the number done and its outcome.
    /// Returns each request's summary (not its pixels, so memory stays bounded however long the
    /// list), in the order of `requests`.
    public func prefetch(
        _ requests: [ImageRequest],
        progress: @escaping @Sendable (Int, Result<ImageSummary, any Error>) -> Void = { _, _ in }
    ) async -> [Result<ImageSummary, any Error>] {
        // A window of requests in flight, enough to keep every download and decode slot busy,
        // rather than one task per request: a list of thousands stays a few tasks at a time.
        let window = configuration.maxConcurrentLoads + 2 * configuration.maxConcurrentDecodes
        return await withTaskGroup(of: Prefetched.self) { group in
            var pending = requests.enumerated().makeIterator()
            func startNext() {
                guard let (index, request) = pending.next() else { return }
                group.addTask {
                    do {
                        return Prefetched(index: index, result: .success(try await self.image(for: request).summary))
                    } catch {
                        return Prefetched(index: index, result: .failure(error))
                    }
                }
            }
            for _ in 0..<max(1, window) { startNext() }
            var results = [Result<ImageSummary, any Error>?](repeating: nil, count: requests.count)
            var done = 0
            for await item in group {
                results[item.index] = item.result
                done += 1
                progress(done, item.result)
                startNext()
            }
            return results.map { $0! }
        }
    }

    /// One prefetch result and its request's place in the list. (A struct, not an `(Int, Result)`
    /// tuple: Swift 6.3.1 at -O loses the tuple's Int when a task-group child returns it.)
    private struct Prefetched: Sendable {
        let index: Int
        let result: Result<ImageSummary, any Error>
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
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
