import Foundation

extension ImagePipeline {
    /// Prepares `requests` concurrently (within the pipeline's limits) and stores each variant, so
    /// that later `image(for:)` calls hit the disk cache, calling `progress` after each request with
    /// the number done and its result. Requests for one URL are prepared together: the original is
    /// fetched once and decoded once per DCT scale for all their targets. Variants already stored
    /// are not decoded. Returns each request's summary (not its pixels, so memory stays bounded
    /// however long the list), in the order of `requests`. Each request keeps its own priority
    /// (a background prefetch passes `.low`, so that requests a user waits for go first). Once
    /// `shutdown()` has begun, every request fails with `ImgCacheError.shutDown`.
    public func prefetch(
        _ requests: [ImageRequest],
        progress: @escaping @Sendable (Int, Result<ImageSummary, any Error>) -> Void = { _, _ in }
    ) async -> [Result<ImageSummary, any Error>] {
        do {
            return try await lifecycle.call { await prefetchAll(requests, progress: progress) }
        } catch {
            return requests.indices.map { index in
                metrics.requestStarted()
                metrics.requestFailed(error, seconds: 0)
                progress(index + 1, .failure(error))
                return .failure(error)
            }
        }
    }

    private func prefetchAll(
        _ requests: [ImageRequest], progress: @escaping @Sendable (Int, Result<ImageSummary, any Error>) -> Void
    ) async -> [Result<ImageSummary, any Error>] {
        var results = [Result<ImageSummary, any Error>?](repeating: nil, count: requests.count)
        var done = 0
        func finish(_ index: Int, _ result: Result<ImageSummary, any Error>) {
            results[index] = result
            done += 1
            progress(done, result)
        }
        var groups: [String: [(index: Int, plan: RequestPlan)]] = [:]
        var order: [String] = []
        for (index, request) in requests.enumerated() {
            do {
                let plan = try RequestPlan(request, configuration)
                // Requests for one original with the same policies are prepared together.
                let group = plan.originalRequest.coalescingKey
                if groups[group] == nil { order.append(group) }
                groups[group, default: []].append((index, plan))
            } catch {
                metrics.requestStarted()
                metrics.requestFailed(error, seconds: 0)
                finish(index, .failure(error))
            }
        }
        // A window of URLs in flight, enough to keep every download and decode slot busy, rather
        // than one task per URL: a list of thousands stays a few tasks at a time.
        let window = max(1, configuration.maxConcurrentLoads + 2 * configuration.maxConcurrentDecodes)
        await withTaskGroup(of: [Prefetched].self) { group in
            var pending = order.makeIterator()
            func startNext() {
                guard let key = pending.next(), let members = groups[key] else { return }
                group.addTask { await self.prefetchGroup(members) }
            }
            for _ in 0..<window { startNext() }
            for await finished in group {
                for item in finished { finish(item.index, item.result) }
                startNext()
            }
        }
        return results.map { $0! }
    }

    /// The summaries of requests for one URL, made ready together.
    private func prefetchGroup(_ members: [(index: Int, plan: RequestPlan)]) async -> [Prefetched] {
        let start = DispatchTime.now()
        for _ in members { metrics.requestStarted() }
        let priority = members.map(\.plan.request.priority).max() ?? .normal
        let prepared = await variants(for: members.map(\.plan), keepsPixels: false, context: WorkContext(priority: priority))
        let total = Self.seconds(since: start)
        return members.map { member in
            let result = prepared[member.plan.workKey] ?? .failure(CancellationError())
            switch result {
            case .success(let variant): metrics.requestFinished(outcome: variant.cacheOutcome, seconds: total)
            case .failure(let error): metrics.requestFailed(error, seconds: total)
            }
            return Prefetched(
                index: member.index,
                result: result.map { $0.summary(
                    for: member.plan.request, variantKey: member.plan.variantKey, scale: member.plan.scale, total: total,
                    keepsBytes: false) })
        }
    }

    /// One prefetch result and its request's place in the list. (A struct, not an `(Int, Result)`
    /// tuple: Swift 6.3.1 at -O loses the tuple's Int when a task-group child returns it.)
    private struct Prefetched: Sendable {
        let index: Int
        let result: Result<ImageSummary, any Error>
    }
}
