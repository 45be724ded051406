import Synchronization

/// The requests waiting on one piece of work, as that work sees them: how urgent it is, and
/// where the download progress it makes goes.
///
/// A request has a context of its own (its priority, which an `ImageTask` may change, and its
/// progress handler). Work shared by several requests (a coalesced download or decode) has a
/// context whose members are the contexts of those waiting on it: its priority is the highest
/// of theirs, kept up to date as members join, leave or change, and its progress goes to every
/// member. Work waiting on other work is a member of that work's context, so a raised request
/// raises everything it waits on.
final class WorkContext: Sendable {
    private struct Member {
        let context: WorkContext
        var count: Int
        let subscription: UInt64
    }

    private struct State {
        /// A request's own priority; nil for shared work, whose priority is its members'.
        var own: ImageRequest.Priority?
        var members: [ObjectIdentifier: Member] = [:]
        var priority: ImageRequest.Priority
        var listeners: [UInt64: @Sendable () -> Void] = [:]
        var nextListener: UInt64 = 0
    }

    private let state: Mutex<State>
    private let progressHandler: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)?

    /// A request's own context at `priority`, whose download progress goes to `onProgress`
    /// (default nil: dropped).
    init(priority: ImageRequest.Priority, onProgress: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)? = nil) {
        state = Mutex(State(own: priority, priority: priority))
        progressHandler = onProgress
    }

    /// The context of shared work: at `.veryLow` until a member joins.
    init() {
        state = Mutex(State(own: nil, priority: .veryLow))
        progressHandler = nil
    }

    /// The current priority: a request's own, or the highest of the members'.
    var priority: ImageRequest.Priority { state.withLock { $0.priority } }

    /// Sets a request's own priority (shared work ignores it) and tells those waiting on it.
    func setPriority(_ priority: ImageRequest.Priority) {
        let changed = state.withLock { state -> Bool in
            guard state.own != nil, state.own != priority else { return false }
            state.own = priority
            state.priority = priority
            return true
        }
        if changed { notifyListeners() }
    }

    /// Adds `member` to those waiting on this work (once more when it is already one: it then
    /// takes as many `remove` calls to leave).
    func add(_ member: WorkContext) {
        let id = ObjectIdentifier(member)
        let isNew = state.withLock { state -> Bool in
            guard state.members[id] != nil else { return true }
            state.members[id]?.count += 1
            return false
        }
        guard isNew else { return }
        let subscription = member.observe { [weak self] in self?.recompute() }
        let duplicate = state.withLock { state -> Bool in
            if state.members[id] != nil {
                state.members[id]?.count += 1
                return true
            }
            state.members[id] = Member(context: member, count: 1, subscription: subscription)
            return false
        }
        if duplicate { member.stopObserving(subscription) }
        recompute()
    }

    /// Removes one membership of `member`.
    func remove(_ member: WorkContext) {
        let id = ObjectIdentifier(member)
        let gone = state.withLock { state -> Member? in
            guard var entry = state.members[id] else { return nil }
            entry.count -= 1
            if entry.count > 0 {
                state.members[id] = entry
                return nil
            }
            state.members[id] = nil
            return entry
        }
        guard let gone else { return }
        gone.context.stopObserving(gone.subscription)
        recompute()
    }

    /// Removes every member: the work is over.
    func detachAll() {
        let members = state.withLock { state -> [Member] in
            defer { state.members = [:] }
            return Array(state.members.values)
        }
        for member in members { member.context.stopObserving(member.subscription) }
    }

    /// Calls `listener` whenever the priority changes; returns the token `stopObserving` takes.
    func observe(_ listener: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            state.nextListener += 1
            state.listeners[state.nextListener] = listener
            return state.nextListener
        }
    }

    func stopObserving(_ token: UInt64) {
        _ = state.withLock { $0.listeners.removeValue(forKey: token) }
    }

    /// Download progress: to the request's handler, or to every member.
    func reportProgress(received: Int64, expected: Int64?) {
        if let progressHandler { progressHandler(received, expected) }
        let members = state.withLock { state in state.members.values.map(\.context) }
        for member in members { member.reportProgress(received: received, expected: expected) }
    }

    /// Shared work's priority from its members' (read under this lock: a member's lock is only
    /// ever taken inside its parent's, never the other way), telling the listeners when it changed.
    private func recompute() {
        let changed = state.withLock { state -> Bool in
            guard state.own == nil else { return false }
            let highest = state.members.values.map(\.context.priority).max() ?? .veryLow
            guard state.priority != highest else { return false }
            state.priority = highest
            return true
        }
        if changed { notifyListeners() }
    }

    private func notifyListeners() {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener() }
    }
}
