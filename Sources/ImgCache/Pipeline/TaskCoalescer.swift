/// Shares one piece of async work among identical requests in flight.
///
/// The first request for a key starts the work; requests for the same key that arrive before it
/// ends wait for the same result. A waiter that is cancelled returns at once with
/// `CancellationError`; the work itself is cancelled only when every waiter has cancelled. Once the
/// work ends, the next request for the key starts it anew (results are not kept here).
actor TaskCoalescer<Key: Hashable & Sendable, Value: Sendable> {
    private final class Operation {
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
    }

    private var operations: [Key: Operation] = [:]
    private var nextWaiter: UInt64 = 0

    /// Number of operations started so far (each ran `work` once).
    private(set) var startedCount = 0

    /// Number of keys with work in flight.
    var inFlightCount: Int { operations.count }

    /// The result of `work` for `key`, shared with every concurrent caller of the same key.
    func value(for key: Key, work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        nextWaiter += 1
        let waiter = nextWaiter
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let operation = operations[key] ?? start(key, work)
                operation.waiters[waiter] = continuation
            }
        } onCancel: {
            Task { await self.cancel(waiter: waiter, key: key) }
        }
    }

    private func start(_ key: Key, _ work: @escaping @Sendable () async throws -> Value) -> Operation {
        let operation = Operation()
        operations[key] = operation
        startedCount += 1
        operation.task = Task {
            let result: Result<Value, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            self.finish(key, operation, result)
        }
        return operation
    }

    private func finish(_ key: Key, _ operation: Operation, _ result: Result<Value, any Error>) {
        if operations[key] === operation { operations[key] = nil }
        let waiters = operation.waiters.values
        operation.waiters = [:]
        for continuation in waiters { continuation.resume(with: result) }
    }

    private func cancel(waiter: UInt64, key: Key) {
        guard let operation = operations[key], let continuation = operation.waiters.removeValue(forKey: waiter) else {
            return
        }
        continuation.resume(throwing: CancellationError())
        if operation.waiters.isEmpty {
            operation.task?.cancel()
            operations[key] = nil
        }
    }
}
