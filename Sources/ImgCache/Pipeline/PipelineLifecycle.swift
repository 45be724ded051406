import Synchronization

/// Whether a pipeline still takes calls, and how many it is serving: `ImagePipeline.shutdown()`
/// closes it, then waits until the calls in flight have returned before it ends the pipeline's
/// threads.
final class PipelineLifecycle: Sendable {
    private struct State {
        var callsInFlight = 0
        var isClosed = false
        /// `closeAndWait()` callers waiting for the calls in flight to return.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// False once `closeAndWait()` has begun.
    var isOpen: Bool { state.withLock { !$0.isClosed } }

    /// Runs `work` as a call in flight; throws `ImgCacheError.shutDown` without running it once
    /// the lifecycle is closed.
    func call<Value>(_ work: () async throws -> Value) async throws -> Value {
        try state.withLock { state in
            guard !state.isClosed else { throw ImgCacheError.shutDown }
            state.callsInFlight += 1
        }
        defer { leave() }
        return try await work()
    }

    /// Refuses calls from now on and returns once every call in flight has returned.
    func closeAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isIdle = state.withLock { state in
                state.isClosed = true
                guard state.callsInFlight > 0 else { return true }
                state.waiters.append(continuation)
                return false
            }
            if isIdle { continuation.resume() }
        }
    }

    private func leave() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.callsInFlight -= 1
            guard state.callsInFlight == 0, state.isClosed else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
