/// Lets at most `limit` pieces of async work run at once; the others wait in arrival order.
/// A waiter that is cancelled leaves the queue at once with `CancellationError`.
actor AsyncLimiter {
    let limit: Int
    private var running = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `work` once a slot is free.
    func run<Result: Sendable>(_ work: @Sendable () async throws -> Result) async throws -> Result {
        try await acquire()
        defer { release() }
        return try await work()
    }

    private func acquire() async throws {
        if running < limit {
            running += 1
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiting.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            // The slot passes straight to the next waiter.
            waiting.removeFirst().continuation.resume()
        }
    }

    private func cancel(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
