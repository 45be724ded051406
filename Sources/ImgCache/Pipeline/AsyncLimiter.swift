/// Lets async work run while the costs of the pieces running add up to at most `capacity`; the
/// others wait in arrival order (a costly piece at the head is not overtaken by cheaper ones, so
/// it never starves). A cost is at least 1 and at most `capacity`: a piece costing more than the
/// whole runs alone. With every cost 1, it lets `capacity` pieces run at once.
/// A waiter that is cancelled leaves the queue at once with `CancellationError`.
actor AsyncLimiter {
    let capacity: Int
    private var inUse = 0
    private var waiting: [(id: UInt64, cost: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0
    /// The most cost that has run at once, and the most pieces (for tests).
    private(set) var peak: (cost: Int, pieces: Int) = (0, 0)
    private var pieces = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Runs `work` once `cost` (clamped to 1...capacity) fits beside the work running.
    func run<Result: Sendable>(cost: Int = 1, _ work: @Sendable () async throws -> Result) async throws -> Result {
        let cost = min(max(1, cost), capacity)
        try await acquire(cost)
        defer { release(cost) }
        return try await work()
    }

    private func acquire(_ cost: Int) async throws {
        if waiting.isEmpty && inUse + cost <= capacity {
            start(cost)
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiting.append((id, cost, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
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

    /// Starts waiters from the head of the queue while they fit.
    private func startWaitersThatFit() {
        while let next = waiting.first, inUse + next.cost <= capacity {
            waiting.removeFirst()
            start(next.cost)
            next.continuation.resume()
        }
    }

    private func cancel(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
        // The head may have left: those behind it may fit now.
        startWaitersThatFit()
    }
}
