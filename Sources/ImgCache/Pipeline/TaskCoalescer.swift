/// Shares async work among identical requests in flight.
///
/// The first request for a key starts the work; requests for the same key that arrive before it
/// ends wait for the same result. `values(for:work:)` asks for several keys at once: keys already
/// in flight are joined, and the others are computed together by one call of its `work`, whose
/// results are shared with anyone asking for those keys meanwhile. A waiter that is cancelled
/// returns at once with `CancellationError`; work is cancelled only when every waiter of every
/// key it computes has cancelled. Once work ends, the next request for its keys starts anew
/// (results are not kept here).
///
/// Each piece of work has a `WorkContext` whose members are the contexts of its waiters: the work
/// runs at the highest priority among them (raised as waiters join or are raised, lowered as they
/// leave), and its download progress reaches each of them.
actor TaskCoalescer<Key: Hashable & Sendable, Value: Sendable> {
    typealias Outcome = Result<Value, any Error>

    /// One piece of work, how many of its keys still have waiters, and their contexts.
    private final class Work {
        var task: Task<Void, Never>?
        var liveKeys: Int
        let context = WorkContext()
        init(liveKeys: Int) { self.liveKeys = liveKeys }
    }

    /// A caller of `values(for:)`: the results gathered so far and the keys still awaited.
    private final class BatchWaiter {
        var results: [Key: Outcome] = [:]
        var remaining: Set<Key>
        var continuation: CheckedContinuation<[Key: Outcome], Never>?
        init(keys: Set<Key>, continuation: CheckedContinuation<[Key: Outcome], Never>) {
            remaining = keys
            self.continuation = continuation
        }

        func deliver(_ outcome: Outcome, for key: Key) {
            guard remaining.remove(key) != nil else { return }
            results[key] = outcome
            if remaining.isEmpty {
                continuation?.resume(returning: results)
                continuation = nil
            }
        }
    }

    private enum Waiter {
        case single(CheckedContinuation<Value, any Error>)
        case batch(BatchWaiter)

        func deliver(_ outcome: Outcome, for key: Key) {
            switch self {
            case .single(let continuation): continuation.resume(with: outcome)
            case .batch(let waiter): waiter.deliver(outcome, for: key)
            }
        }
    }

    /// The waiters of one key in flight (with their contexts) and the work computing it.
    private final class Operation {
        let work: Work
        var waiters: [UInt64: (waiter: Waiter, context: WorkContext)] = [:]
        init(work: Work) { self.work = work }

        func add(_ id: UInt64, _ waiter: Waiter, context: WorkContext) {
            waiters[id] = (waiter, context)
            work.context.add(context)
        }
    }

    private var operations: [Key: Operation] = [:]
    private var nextWaiter: UInt64 = 0

    /// Number of pieces of work started so far.
    private(set) var startedCount = 0

    /// Number of keys with work in flight.
    var inFlightCount: Int { operations.count }

    /// The result of `work` for `key`, shared with every concurrent caller of the same key;
    /// `context` is the caller's, `work` is given the work's.
    func value(
        for key: Key, context: WorkContext, work: @escaping @Sendable (WorkContext) async throws -> Value
    ) async throws -> Value {
        let waiter = newWaiter()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
                if operations[key] == nil {
                    start([key]) { _, workContext in
                        do { return [key: .success(try await work(workContext))] } catch { return [key: .failure(error)] }
                    }
                }
                operations[key]!.add(waiter, .single(continuation), context: context)
            }
        } onCancel: {
            Task { await self.cancel(waiter: waiter, keys: [key]) }
        }
    }

    /// The results for `keys`: keys in flight are joined; the rest are computed by one call of
    /// `work`, which is given them and the work's context, and must return a result for each (a
    /// missing one fails with `CancellationError`). On cancellation, keys not yet done fail with
    /// `CancellationError`. `context` is the caller's.
    func values(
        for keys: [Key], context: WorkContext, work: @escaping @Sendable ([Key], WorkContext) async -> [Key: Outcome]
    ) async -> [Key: Outcome] {
        let unique = Array(Set(keys))
        guard !unique.isEmpty else { return [:] }
        let waiter = newWaiter()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let batch = BatchWaiter(keys: Set(unique), continuation: continuation)
                if Task.isCancelled {
                    for key in unique { batch.deliver(.failure(CancellationError()), for: key) }
                    return
                }
                let fresh = unique.filter { operations[$0] == nil }
                if !fresh.isEmpty { start(fresh, work) }
                for key in unique { operations[key]!.add(waiter, .batch(batch), context: context) }
            }
        } onCancel: {
            Task { await self.cancel(waiter: waiter, keys: unique) }
        }
    }

    private func newWaiter() -> UInt64 {
        nextWaiter += 1
        return nextWaiter
    }

    /// Registers an operation for each of `keys` and starts one task computing them all.
    private func start(_ keys: [Key], _ body: @escaping @Sendable ([Key], WorkContext) async -> [Key: Outcome]) {
        let work = Work(liveKeys: keys.count)
        var started: [(Key, Operation)] = []
        for key in keys {
            let operation = Operation(work: work)
            operations[key] = operation
            started.append((key, operation))
        }
        startedCount += 1
        let context = work.context
        work.task = Task {
            let results = await body(keys, context)
            self.finish(started, results)
        }
    }

    private func finish(_ started: [(Key, Operation)], _ results: [Key: Outcome]) {
        for (key, operation) in started {
            if operations[key] === operation { operations[key] = nil }
            let outcome = results[key] ?? .failure(CancellationError())
            let waiters = operation.waiters.values
            operation.waiters = [:]
            for entry in waiters { entry.waiter.deliver(outcome, for: key) }
        }
        started.first?.1.work.context.detachAll()
    }

    private func cancel(waiter: UInt64, keys: [Key]) {
        for key in keys {
            guard let operation = operations[key], let removed = operation.waiters.removeValue(forKey: waiter) else {
                continue
            }
            operation.work.context.remove(removed.context)
            removed.waiter.deliver(.failure(CancellationError()), for: key)
            guard operation.waiters.isEmpty else { continue }
            operations[key] = nil
            operation.work.liveKeys -= 1
            if operation.work.liveKeys == 0 { operation.work.task?.cancel() }
        }
    }
}
