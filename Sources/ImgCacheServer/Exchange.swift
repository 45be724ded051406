import Synchronization

/// One request on its way through the server, from its request line to the end of its response:
/// MHD holds it as the request's context between its callbacks.
///
/// Its response is delivered once (by the handler, the time-out or the shutdown, whichever comes
/// first); delivering it resumes the suspended connection, and the connection's MHD thread then takes the
/// response and queues it.
final class Exchange: Sendable {
    private struct State {
        var response: PreparedResponse?
        var delivered = false
        /// Set while the connection is suspended and nothing was delivered yet.
        var connection: MHDConnection?
        var stage = Stage.requestLine
        /// The task running the handler and its time-out, cancelled when another answer wins.
        var work: Task<Void, Never>?
        /// The request's method as sent, once the headers are in.
        var method = ""
        /// Whether the connection's socket was corked for the response (see `MHDDaemon`).
        var corked = false
    }

    /// How far MHD's calls of the handler callback have come.
    enum Stage: Sendable {
        /// Only the request line is in.
        case requestLine
        /// The headers are in (first call), the request accepted by `ServerCore.screen`.
        case screened(HTTPRequest)
        /// The whole request is in (second call): answered, or suspended until it is.
        case begun
    }

    /// The request target exactly as it came in the request line.
    let target: String
    /// When the request line came in.
    let arrival = ContinuousClock.now
    private let state = Mutex(State())

    init(target: String) {
        self.target = target
    }

    var stage: Stage {
        get { state.withLock { $0.stage } }
        set { state.withLock { $0.stage = newValue } }
    }

    /// The request's method as sent ("" before the headers are in).
    var method: String {
        get { state.withLock { $0.method } }
        set { state.withLock { $0.method = newValue } }
    }

    /// Whether the connection's socket was corked for the response, to be uncorked once the
    /// response is sent.
    var corked: Bool {
        get { state.withLock { $0.corked } }
        set { state.withLock { $0.corked = newValue } }
    }

    /// Whether the request reached the handler callback (and so counts as in flight until MHD
    /// reports it complete).
    var started: Bool {
        if case .requestLine = stage { return false }
        return true
    }

    /// Records that `connection` is suspended until the response is delivered (and resumes it at
    /// once when one already was).
    func suspended(on connection: MHDConnection) {
        let resumeNow = state.withLock { state in
            if state.delivered { return true }
            state.connection = connection
            return false
        }
        if resumeNow { connection.resume() }
    }

    /// Keeps the task that runs the handler, to cancel it when another answer is delivered first.
    func attach(_ work: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.work = work
            return state.delivered
        }
        if cancelled { work.cancel() }
    }

    /// Sets the response, cancels the task that runs the handler and the time-out (the one that
    /// delivered is done with its work by then), calls `delivered` and resumes the connection;
    /// false (and nothing changes) when a response was delivered already.
    @discardableResult
    func deliver(_ response: PreparedResponse, delivered: () -> Void = {}) -> Bool {
        let taken: (connection: MHDConnection?, work: Task<Void, Never>?)? = state.withLock { state in
            guard !state.delivered else { return nil }
            state.delivered = true
            state.response = response
            defer { state.connection = nil; state.work = nil }
            return (state.connection, state.work)
        }
        guard let taken else { return false }
        taken.work?.cancel()
        delivered()
        taken.connection?.resume()
        return true
    }

    /// Whether a response was delivered.
    var isDelivered: Bool {
        state.withLock { $0.delivered }
    }

    /// The delivered response, once (for the connection's MHD thread, after the connection resumed).
    func takeResponse() -> PreparedResponse? {
        state.withLock { state in
            defer { state.response = nil }
            return state.response
        }
    }
}
