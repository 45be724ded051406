import Synchronization

/// At most `maxRunning` handlers at once, at most `maxWaiting` requests waiting for one to finish
/// (first come, first served), and no room for any more: the server answers those 503.
///
/// `admit()` is synchronous, for MHD's threads; waiting for a turn is async and cancellable.
final class AdmissionQueue: Sendable {
    /// A request let in by `admit()`.
    enum Admission: Sendable {
        /// A slot is taken: run the handler now, then call `finish()`.
        case run
        /// Queued: wait for `turn(_:)`.
        case wait(Ticket)
    }

    /// A place in the queue.
    struct Ticket: Sendable, Hashable {
        fileprivate let number: UInt64
    }

    private struct Waiter {
        let ticket: Ticket
        var continuation: CheckedContinuation<Bool, Never>?
    }

    private struct State {
        var running = 0
        var waiting: [Waiter] = []
        /// Tickets given a slot before they asked for their turn.
        var granted: Set<Ticket> = []
        /// Tickets withdrawn before they asked for their turn.
        var withdrawn: Set<Ticket> = []
        var nextTicket: UInt64 = 0
    }

    let maxRunning: Int
    let maxWaiting: Int
    private let state = Mutex(State())

    init(maxRunning: Int, maxWaiting: Int) {
        self.maxRunning = max(1, maxRunning)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// Handlers holding a slot, and requests waiting for one.
    var counts: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiting.count) }
    }

    /// A slot, a place in the queue, or nil when every one of both is taken.
    func admit() -> Admission? {
        state.withLock { state in
            if state.running < maxRunning {
                state.running += 1
                return .run
            }
            guard state.waiting.count < maxWaiting else { return nil }
            let ticket = Ticket(number: state.nextTicket)
            state.nextTicket += 1
            state.waiting.append(Waiter(ticket: ticket, continuation: nil))
            return .wait(ticket)
        }
    }

    /// Waits until `ticket` holds a slot (true: run the handler, then `finish()`), or until it
    /// is withdrawn or the task cancelled (false: no slot is held).
    func turn(_ ticket: Ticket) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = state.withLock { state in
                    if state.granted.remove(ticket) != nil { return true }
                    if state.withdrawn.remove(ticket) != nil { return false }
                    guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else { return false }
                    state.waiting[index].continuation = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            withdraw(ticket)
        }
    }

    /// Takes `ticket` out of the queue; false when it already holds a slot (or was withdrawn).
    @discardableResult
    func withdraw(_ ticket: Ticket) -> Bool {
        let (found, continuation): (Bool, CheckedContinuation<Bool, Never>?) = state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else { return (false, nil) }
            let waiter = state.waiting.remove(at: index)
            if waiter.continuation == nil { state.withdrawn.insert(ticket) }
            return (true, waiter.continuation)
        }
        continuation?.resume(returning: false)
        return found
    }

    /// Gives the caller's slot to the first request waiting, or frees it.
    func finish() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            let waiter = state.waiting.removeFirst()
            if waiter.continuation == nil { state.granted.insert(waiter.ticket) }
            return waiter.continuation
        }
        next?.resume(returning: true)
    }
}
