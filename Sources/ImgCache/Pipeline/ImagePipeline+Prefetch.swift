import Foundation

extension ImagePipeline {
    /// The groups in flight of a prefetch by default: enough to keep every download and decode
    /// slot busy (`maxConcurrentLoads + 2 * maxConcurrentDecodes`).
    public var defaultPrefetchWindow: Int {
        max(1, configuration.maxConcurrentLoads + 2 * configuration.maxConcurrentDecodes)
    }

    /// Prepares the groups of `stream` as they come, at most `window` groups at a time (default
    /// `defaultPrefetchWindow`), and stores each variant, so that later `image(for:)` calls hit
    /// the disk cache. A group is the requests of one source (its targets): the original is
    /// fetched once and decoded once per DCT scale for all of them; variants already stored are
    /// not decoded. Results come out as they finish, and nothing is kept per request once its
    /// result is read, so memory is bounded by the window however long the stream. With a
    /// `fallback`, a request whose source fails in a way it covers gets the fallback's image with
    /// its options instead. Each request keeps its own priority (a background prefetch passes
    /// `.low`). Once `shutdown()` has begun, every request fails with `ImgCacheError.shutDown`.
    public func prefetch<Groups: AsyncSequence & Sendable>(
        stream: Groups, fallback: ImageFallback? = nil, window: Int? = nil
    ) -> PrefetchResults where Groups.Element == [ImageRequest] {
        let window = max(1, window ?? defaultPrefetchWindow)
        let (results, output) = AsyncThrowingStream<PrefetchResult, any Error>.makeStream()
        let (freed, free) = AsyncStream<Void>.makeStream()
        let task = Task {
            do {
                do {
                    try await lifecycle.call {
                        try await prefetchGroups(stream, fallback: fallback, window: window, freed: freed, output: output)
                    }
                } catch ImgCacheError.shutDown {
                    try await refuseGroups(stream, output: output)
                }
                output.finish()
            } catch {
                output.finish(throwing: error)
            }
        }
        output.onTermination = { _ in task.cancel() }
        return PrefetchResults(results: results, freed: free, work: task)
    }

    /// Prepares `requests` as `prefetch(stream:)` does, requests for one original together, and
    /// returns each request's summary (not its pixels) in the order of `requests`, calling
    /// `progress` after each with the number done and its result.
    public func prefetch(
        _ requests: [ImageRequest],
        progress: @escaping @Sendable (Int, Result<ImageSummary, any Error>) -> Void = { _, _ in }
    ) async -> [Result<ImageSummary, any Error>] {
        await prefetchAll(requests, fallback: nil) { done, result in progress(done, result.map(\.summary)) }
            .map { $0.map(\.summary) }
    }

    /// Prefetches `requests` as `prefetch(_:progress:)` does (`progress` follows the sources),
    /// preparing `fallback`'s image in place of each request whose source failed in a way it
    /// covers, with that request's options: the fallback's original is fetched once for all, and
    /// each option set rendered once. Each result is the source's variant, the fallback's with the
    /// source's failure, or the error (the source's when the fallback does not cover it, else the
    /// fallback's own), in the order of `requests`.
    public func prefetch(
        _ requests: [ImageRequest], fallback: ImageFallback,
        progress: @escaping @Sendable (Int, Result<ImageSummary, any Error>) -> Void = { _, _ in }
    ) async -> [Result<FallbackSummary, any Error>] {
        await prefetchAll(requests, fallback: fallback) { done, result in
            progress(done, result.flatMap { item in item.sourceFailure.map { .failure($0) } ?? .success(item.summary) })
        }
    }

    /// A whole list streamed: requests for one original form one group, in the order of their
    /// first request.
    private func prefetchAll(
        _ requests: [ImageRequest], fallback: ImageFallback?,
        progress: @escaping @Sendable (Int, Result<FallbackSummary, any Error>) -> Void
    ) async -> [Result<FallbackSummary, any Error>] {
        var groups: [String: [Int]] = [:], order: [String] = []
        for (index, request) in requests.enumerated() {
            // A request that cannot be planned is a group of its own, refused when it comes.
            let key = (try? RequestPlan(request, configuration).originalRequest.coalescingKey) ?? "#\(index)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(index)
        }
        let positions = order.flatMap { groups[$0] ?? [] }
        let stream = AsyncStream<[ImageRequest]> { continuation in
            for key in order { continuation.yield((groups[key] ?? []).map { requests[$0] }) }
            continuation.finish()
        }
        var results = [Result<FallbackSummary, any Error>](repeating: .failure(CancellationError()), count: requests.count)
        var done = 0
        do {
            for try await item in prefetch(stream: stream, fallback: fallback) {
                results[positions[item.index]] = item.result
                done += 1
                progress(done, item.result)
            }
        } catch {
            // An array never throws; a cancelled caller keeps the cancellation errors.
        }
        return results
    }

    private func prefetchGroups<Groups: AsyncSequence>(
        _ stream: Groups, fallback: ImageFallback?, window: Int, freed: AsyncStream<Void>,
        output: AsyncThrowingStream<PrefetchResult, any Error>.Continuation
    ) async throws where Groups.Element == [ImageRequest] {
        var groups = stream.makeAsyncIterator(), freedPlaces = freed.makeAsyncIterator()
        var next = 0, inFlight = 0
        var streamError: (any Error)?
        await withDiscardingTaskGroup { tasks in
            do {
                while let requests = try await groups.next() {
                    guard !requests.isEmpty else { continue }
                    if inFlight == window {
                        // The reader has read a whole group's results: its place is free.
                        guard await freedPlaces.next() != nil else { return }
                        inFlight -= 1
                    }
                    let first = next
                    next += requests.count
                    inFlight += 1
                    tasks.addTask { await self.prefetchGroup(requests, from: first, fallback: fallback, output: output) }
                }
            } catch {
                // The groups started finish first.
                streamError = error
            }
        }
        if let streamError { throw streamError }
    }

    /// Fails every request of `stream` with `ImgCacheError.shutDown`.
    private func refuseGroups<Groups: AsyncSequence>(
        _ stream: Groups, output: AsyncThrowingStream<PrefetchResult, any Error>.Continuation
    ) async throws where Groups.Element == [ImageRequest] {
        var next = 0
        for try await requests in stream {
            for (offset, request) in requests.enumerated() {
                metrics.requestStarted()
                metrics.requestFailed(ImgCacheError.shutDown, seconds: 0)
                output.yield(PrefetchResult(
                    index: next + offset, request: request, result: .failure(ImgCacheError.shutDown),
                    endsGroup: offset == requests.count - 1))
            }
            next += requests.count
        }
    }

    /// The results of one group, whose first request is the stream's `first`, put out together.
    private func prefetchGroup(
        _ requests: [ImageRequest], from first: Int, fallback: ImageFallback?,
        output: AsyncThrowingStream<PrefetchResult, any Error>.Continuation
    ) async {
        let sources = await summaries(of: requests)
        var results = sources.map { $0.map { FallbackSummary(summary: $0) } }
        if let fallback {
            let failed = sources.indices.compactMap { index -> (index: Int, failure: ImgCacheError)? in
                guard case .failure(let error as ImgCacheError) = sources[index], ImageFallback.covers(error) else { return nil }
                return (index, error)
            }
            let fallbacks = await summaries(of: failed.map { fallback.request(for: requests[$0.index]) })
            for (source, result) in zip(failed, fallbacks) {
                results[source.index] = result.map { FallbackSummary(summary: $0, sourceFailure: source.failure) }
            }
        }
        for (offset, result) in results.enumerated() {
            output.yield(PrefetchResult(
                index: first + offset, request: requests[offset], result: result, endsGroup: offset == results.count - 1))
        }
    }

    /// The summaries of `requests`, in their order; requests for one original are prepared together.
    private func summaries(of requests: [ImageRequest]) async -> [Result<ImageSummary, any Error>] {
        var results = [Result<ImageSummary, any Error>](repeating: .failure(CancellationError()), count: requests.count)
        var members: [String: [(index: Int, plan: RequestPlan)]] = [:], order: [String] = []
        for (index, request) in requests.enumerated() {
            do {
                let plan = try RequestPlan(request, configuration)
                let key = plan.originalRequest.coalescingKey
                if members[key] == nil { order.append(key) }
                members[key, default: []].append((index, plan))
            } catch {
                metrics.requestStarted()
                metrics.requestFailed(error, seconds: 0)
                results[index] = .failure(error)
            }
        }
        for key in order {
            for (index, result) in await summaries(ofOneOriginal: members[key] ?? []) { results[index] = result }
        }
        return results
    }

    /// The summaries of requests for one original, made ready together.
    private func summaries(
        ofOneOriginal members: [(index: Int, plan: RequestPlan)]
    ) async -> [(index: Int, result: Result<ImageSummary, any Error>)] {
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
            return (member.index, result.map { $0.summary(
                for: member.plan.request, variantKey: member.plan.variantKey, scale: member.plan.scale, total: total,
                keepsBytes: false) })
        }
    }
}
