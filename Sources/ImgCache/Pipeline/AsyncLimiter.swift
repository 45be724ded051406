/// Lets async work run while the costs of the pieces running add up to at most `capacity`; the
/// others wait, higher priority first and in arrival order within one priority (a costly piece at
/// the head is not overtaken by cheaper ones behind it, so it never starves). A waiting piece
/// follows its `WorkContext`: raised, it moves up the queue. A cost is at least 1 and at most
/// `capacity`: a piece costing more than the whole runs alone. With every cost 1, it lets
/// `capacity` pieces run at once. A waiter that is cancelled leaves the queue at once with
/// `CancellationError`.
actor AsyncLimiter {
    private struct Waiter {
        let id: UInt64
        let cost: Int
        let continuation: CheckedContinuation<Void, any Error>
        let context: WorkContext?
        let subscription: UInt64?
    }

    let capacity: Int
    private var inUse = 0
    /// Waiters by priority (index = raw value), each queue in arrival order.
    private var queues = [[Waiter]](repeating: [], count: ImageRequest.Priority.allCases.count)
    private var nextID: UInt64 = 0
    /// The most cost that has run at once, and the most pieces (for tests).
    private(set) var peak: (cost: Int, pieces: Int) = (0, 0)
    private var pieces = 0

    /// The pieces waiting at `priority` (for tests).
    func waitingCount(at priority: ImageRequest.Priority) -> Int { queues[priority.rawValue].count }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Runs `work` once `cost` (clamped to 1...capacity) fits beside the work running and no
    /// waiter of a higher priority, or an earlier one of the same, is ahead. `context` (default
    /// nil: `.normal`) gives the priority, read again whenever it changes.
    func run<Result: Sendable>(
        cost: Int = 1, context: WorkContext? = nil, _ work: @Sendable () async throws -> Result
    ) async throws -> Result {
        let cost = min(max(1, cost), capacity)
        try await acquire(cost, context)
        defer { release(cost) }
        return try await work()
    }

    private func acquire(_ cost: Int, _ context: WorkContext?) async throws {
        if queues.allSatisfy(\.isEmpty) && inUse + cost <= capacity {
            start(cost)
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let subscription = context?.observe { [weak self] in
                    guard let self else { return }
                    Task { await self.reprioritize(id) }
                }
                enqueue(Waiter(id: id, cost: cost, continuation: continuation, context: context, subscription: subscription))
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func enqueue(_ waiter: Waiter) {
        let level = (waiter.context?.priority ?? .normal).rawValue
        // Arrival order is id order: a waiter moved from another queue goes back to its place.
        let place = queues[level].firstIndex { $0.id > waiter.id } ?? queues[level].endIndex
        queues[level].insert(waiter, at: place)
        startWaitersThatFit()
    }

    private func start(_ cost: Int) {
        inUse += cost
        pieces += 1
        peak = (max(peak.cost, inUse), max(peak.pieces, pieces))
    }

    private func release(_ cost: Int) {
        inUse -= cost
        pieces -= 1
        startWaitersThatFit()
    }

    /// Starts waiters from the head (the highest priority's first) while they fit.
    private func startWaitersThatFit() {
        while let level = queues.indices.last(where: { !queues[$0].isEmpty }),
              inUse + queues[level][0].cost <= capacity {
            let next = queues[level].removeFirst()
            if let subscription = next.subscription { next.context?.stopObserving(subscription) }
            start(next.cost)
            next.continuation.resume()
        }
    }

    /// Removes the waiter `id` from wherever it is; nil when it is not waiting any more.
    private func take(_ id: UInt64) -> Waiter? {
        for level in queues.indices {
            if let index = queues[level].firstIndex(where: { $0.id == id }) { return queues[level].remove(at: index) }
        }
        return nil
    }

    /// Moves the waiter `id` to the queue of its context's current priority.
    private func reprioritize(_ id: UInt64) {
        guard let waiter = take(id) else { return }
        enqueue(waiter)
    }

    private func cancel(_ id: UInt64) {
        guard let waiter = take(id) else { return }
        if let subscription = waiter.subscription { waiter.context?.stopObserving(subscription) }
        waiter.continuation.resume(throwing: CancellationError())
        // The head may have left: those behind it may fit now.
        startWaitersThatFit()
    }
}
