import Foundation
import Synchronization

/// The outcome of a name lookup that runs on a thread of its own, for callers that must not
/// wait longer than their own time-out: getaddrinfo has none. The thread calls
/// `finish(with:)` once; callers either wait for it up to a time-out (`wait(timeout:)`, the Redis
/// client on the pipeline's blocking threads) or are called back (`notify(_:)`, the loader, which
/// never blocks: its own time-out watch fails the load if the answer is late). A lookup that
/// outlives its callers finishes in the background and is let go.
final class PendingLookup<Failure: Error>: Sendable {
    typealias Outcome = Result<[SocketAddress], Failure>

    private let done = DispatchGroup()
    private let outcome = Mutex<Outcome?>(nil)

    init() {
        done.enter()
    }

    /// Runs `lookUp` on a new thread and finishes with what it returns.
    static func started(_ lookUp: @escaping @Sendable () -> Outcome) -> PendingLookup {
        let lookup = PendingLookup()
        Thread.detachNewThread { lookup.finish(with: lookUp()) }
        return lookup
    }

    /// Sets the outcome and releases the callers; call once.
    func finish(with outcome: Outcome) {
        self.outcome.withLock { $0 = outcome }
        done.leave()
    }

    /// The outcome, waiting up to `timeout` seconds for it; nil when it did not come in time.
    func wait(timeout: TimeInterval) -> Outcome? {
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return outcome.withLock { $0 }
    }

    /// Calls `handler` with the outcome once it is set (at once, on another thread, if it is).
    func notify(_ handler: @escaping @Sendable (Outcome) -> Void) {
        done.notify(queue: .global()) { [self] in
            if let result = outcome.withLock({ $0 }) { handler(result) }
        }
    }
}
