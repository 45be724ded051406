import Foundation
import Synchronization

/// The server's rules and state, between MHD's threads (which call it from `MHDDaemon`'s
/// callbacks, and must never wait) and the tasks that run handlers.
///
/// A request's life: its request line makes an `Exchange`; once its headers are in, `screen`
/// answers it at once (414, 431, 405, 400) or accepts it; once the whole request is in, `begin`
/// answers it (from the immediate handler when that can answer, else 503 when full) or admits
/// it; an admitted request's connection is suspended and a task waits for a slot, runs the
/// handler and delivers the response, unless the request's deadline passes first (one sweeper
/// task checks every suspended request's deadline, so that no request keeps a sleeping task of
/// its own); the delivery resumes the connection and MHD sends the response; MHD then reports
/// the request `completed`.
final class ServerCore: Sendable {
    enum Phase: Sendable, Equatable {
        case running
        /// Not accepting; requests in flight (and new ones on open connections) are answered.
        case draining
        /// The drain is over: every request still waiting is answered 503, new ones too.
        case stopping
        case stopped
    }

    /// What `screen` decided.
    enum Screening: Sendable {
        case answer(PreparedResponse)
        case accept(HTTPRequest)
    }

    /// What `begin` decided.
    enum Beginning: Sendable {
        case answer(PreparedResponse)
        /// Suspend the connection, then call `start(_:_:on:)` with this.
        case run(Admitted)
    }

    /// A request given a slot or a place in the queue.
    struct Admitted: Sendable {
        let request: HTTPRequest
        let admission: AdmissionQueue.Admission
        let deadline: ContinuousClock.Instant
    }

    private struct State {
        var phase = Phase.running
        /// Exchanges whose connection is suspended, with their admission and deadline, until their
        /// response is delivered.
        var suspended: [ObjectIdentifier: (exchange: Exchange, admitted: Admitted)] = [:]
        /// Requests that reached `screen` and are not completed yet.
        var inFlight = 0
        var idleWaiters: [IdleWaiter] = []
        var statistics = HTTPServer.Statistics()
    }

    private let configuration: HTTPServer.Configuration
    /// `configuration.requestTimeout`, within 1 ms...1 year.
    private let requestTimeout: TimeInterval
    private let handler: HTTPServer.Handler
    private let immediateHandler: HTTPServer.ImmediateHandler?
    private let observer: HTTPServer.ResponseObserver?
    private let admission: AdmissionQueue
    private let state = Mutex(State())
    /// Looks for requests past their deadline every `sweepInterval`, until the server stops.
    private let sweeper = Mutex<Task<Void, Never>?>(nil)
    /// A tenth of the request time-out, at most 50 ms: how late a time-out may be answered.
    private let sweepInterval: Duration

    init(
        configuration: HTTPServer.Configuration, observer: HTTPServer.ResponseObserver?,
        immediateHandler: HTTPServer.ImmediateHandler?, handler: @escaping HTTPServer.Handler
    ) {
        self.configuration = configuration
        self.requestTimeout = boundedSeconds(configuration.requestTimeout, lowest: 0.001)
        self.observer = observer
        self.handler = handler
        self.immediateHandler = immediateHandler
        self.admission = AdmissionQueue(maxRunning: configuration.maxInFlight, maxWaiting: configuration.maxQueued)
        sweepInterval = .seconds(min(0.05, requestTimeout / 10))
        let interval = sweepInterval
        sweeper.withLock { task in
            task = Task { [weak self] in
                while (try? await Task.sleep(for: interval)) != nil {
                    guard let self else { return }
                    self.expireOverdue()
                }
            }
        }
    }

    deinit {
        sweeper.withLock { $0 }?.cancel()
    }

    var phase: Phase {
        state.withLock { $0.phase }
    }

    /// Whether responses close their connection (`Connection: close`): from the start of a
    /// shutdown, so that clients take their next request elsewhere.
    var closesConnections: Bool {
        phase != .running
    }

    var statistics: HTTPServer.Statistics {
        let counts = admission.counts
        var statistics = state.withLock { state in
            var statistics = state.statistics
            statistics.requestsInFlight = state.inFlight
            return statistics
        }
        statistics.handlersRunning = counts.running
        statistics.requestsQueued = counts.waiting
        return statistics
    }

    // MARK: MHD's threads

    func connectionOpened() {
        state.withLock {
            $0.statistics.connectionsAccepted += 1
            $0.statistics.openConnections += 1
        }
    }

    func connectionClosed() {
        state.withLock { $0.statistics.openConnections -= 1 }
    }

    func requestLine(target: String) -> Exchange {
        Exchange(target: target)
    }

    /// The headers are in: answers now what can be told from them alone (before any body is
    /// read, so MHD closes the connection after the answer), or accepts the request.
    func screen(_ exchange: Exchange, method: String, headers: HTTPHeaders, headerBytes: Int, peer: NetworkAddress?) -> Screening {
        state.withLock { $0.inFlight += 1 }
        let target = exchange.target
        guard target.utf8.count <= configuration.maxRequestTargetBytes else {
            return .answer(PreparedResponse(text: 414, "the request target is over \(configuration.maxRequestTargetBytes) bytes"))
        }
        guard headerBytes <= configuration.maxHeaderBytes else {
            return .answer(PreparedResponse(text: 431, "the request line and header fields are over \(configuration.maxHeaderBytes) bytes"))
        }
        guard let method = HTTPMethod(rawValue: method) else {
            return .answer(PreparedResponse(text: 405, "method not allowed: only GET and HEAD", headers: ["Allow": "GET, HEAD"]))
        }
        guard target.hasPrefix("/"), target.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return .answer(PreparedResponse(text: 400, "the request target must be a path of visible ASCII characters"))
        }
        guard headers["transfer-encoding"] == nil, headers.values(for: "content-length").allSatisfy({ $0 == "0" }) else {
            return .answer(PreparedResponse(text: 400, "a GET or HEAD request takes no body"))
        }
        guard let peer else {
            return .answer(PreparedResponse(text: 500, "the client's address is unknown"))
        }
        // Searched among the bytes: the target is ASCII, and Characters are slow to walk.
        let query = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        return .accept(HTTPRequest(
            method: method, path: String(target[..<(query ?? target.endIndex)]),
            query: query.map { String(target[target.index(after: $0)...]) } ?? "", headers: headers, peer: peer))
    }

    /// The whole request is in: answers it when the immediate handler can (whose file, if any,
    /// opens), answers 503 when the server is full or stopping, or admits it.
    func begin(_ request: HTTPRequest) -> Beginning {
        guard phase == .running || phase == .draining else {
            return .answer(shuttingDown)
        }
        if let response = immediateHandler?(request), let prepared = PreparedResponse(ifItsFileOpens: response) {
            return .answer(prepared)
        }
        guard let admission = admission.admit() else {
            state.withLock { $0.statistics.refusedRequests += 1 }
            let counts = self.admission.counts
            return .answer(PreparedResponse(
                text: 503, "too busy: \(counts.running) running, \(counts.waiting) waiting", headers: retryAfter))
        }
        let deadline = ContinuousClock.now.advanced(by: .seconds(requestTimeout))
        return .run(Admitted(request: request, admission: admission, deadline: deadline))
    }

    /// The exchange's connection is suspended: starts the task that answers it (or answers 503
    /// at once when the server is stopping).
    func start(_ exchange: Exchange, _ admitted: Admitted, on connection: MHDConnection) {
        exchange.suspended(on: connection)
        let registered = state.withLock { state in
            guard state.phase == .running || state.phase == .draining else { return false }
            state.suspended[ObjectIdentifier(exchange)] = (exchange, admitted)
            return true
        }
        guard registered else {
            switch admitted.admission {
            case .run: admission.finish()
            case .wait(let ticket): if !admission.withdraw(ticket) { admission.finish() }
            }
            exchange.deliver(shuttingDown)
            return
        }
        exchange.attach(Task { await self.answer(exchange, admitted) })
    }

    /// `response` is being queued for `exchange`: tells the observer.
    func responded(_ exchange: Exchange, _ response: PreparedResponse) {
        guard let observer else { return }
        let elapsed = ContinuousClock.now - exchange.arrival
        let method = exchange.method
        observer(HTTPServer.ResponseRecord(
            method: method, target: exchange.target, status: response.status,
            bodyBytes: method == "HEAD" ? 0 : response.bodyByteCount,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, note: response.note))
    }

    func completed(_ exchange: Exchange) {
        guard exchange.started else { return }
        let waiters: [IdleWaiter] = state.withLock { state in
            state.inFlight -= 1
            if state.phase == .draining { state.statistics.requestsDrained += 1 }
            guard state.inFlight == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.finish() }
    }

    // MARK: Handlers

    /// Waits for a slot and runs the handler (`expireOverdue` answers first when the deadline
    /// passes, and cancels this).
    private func answer(_ exchange: Exchange, _ admitted: Admitted) async {
        if case .wait(let ticket) = admitted.admission {
            guard await admission.turn(ticket) else { return }
        }
        guard !Task.isCancelled else {
            admission.finish()
            return
        }
        let response = await handler(admitted.request)
        admission.finish()
        guard !exchange.isDelivered else { return }
        deliver(PreparedResponse(response), to: exchange)
    }

    /// Answers every suspended request whose deadline has passed (see `expire`).
    private func expireOverdue() {
        let now = ContinuousClock.now
        let overdue = state.withLock { state in state.suspended.values.filter { $0.admitted.deadline <= now } }
        for entry in overdue { expire(entry.exchange, entry.admitted) }
    }

    /// At the deadline: 503 for a request still waiting for a slot (it never ran), 504 for one
    /// whose handler is running (which is cancelled, and keeps its slot until it returns).
    private func expire(_ exchange: Exchange, _ admitted: Admitted) {
        let seconds = requestTimeout == requestTimeout.rounded() ? String(Int(requestTimeout)) : String(requestTimeout)
        if case .wait(let ticket) = admitted.admission, admission.withdraw(ticket) {
            let response = PreparedResponse(text: 503, "too busy: no handler was free within \(seconds) s", headers: retryAfter)
            deliver(response, to: exchange, counting: \.queueTimeouts)
        } else {
            deliver(PreparedResponse(text: 504, "the handler did not answer within \(seconds) s"), to: exchange, counting: \.handlerTimeouts)
        }
    }

    /// Delivers `response` unless another was; counts it in `counter` before the client can see it.
    private func deliver(_ response: PreparedResponse, to exchange: Exchange, counting counter: WritableKeyPath<HTTPServer.Statistics, Int>? = nil) {
        let delivered = exchange.deliver(response) {
            if let counter { state.withLock { $0.statistics[keyPath: counter] += 1 } }
        }
        if delivered {
            state.withLock { _ = $0.suspended.removeValue(forKey: ObjectIdentifier(exchange)) }
        }
    }

    private var retryAfter: HTTPHeaders {
        ["Retry-After": String(max(0, configuration.retryAfter))]
    }

    private var shuttingDown: PreparedResponse {
        PreparedResponse(text: 503, "the server is shutting down", headers: retryAfter)
    }

    // MARK: Shutdown

    /// Starts draining; returns the requests in flight.
    func beginDraining() -> Int {
        state.withLock { state in
            state.phase = .draining
            return state.inFlight
        }
    }

    /// Waits until no request is in flight, or `seconds` pass.
    func waitUntilIdle(seconds: TimeInterval) async {
        let waiter = IdleWaiter()
        let idle = state.withLock { state in
            guard state.inFlight > 0 else { return true }
            state.idleWaiters.append(waiter)
            return false
        }
        if idle { return }
        let timer = Task {
            guard (try? await Task.sleep(for: .seconds(boundedSeconds(seconds, lowest: 0)))) != nil else { return }
            waiter.finish()
        }
        defer { timer.cancel() }
        await waiter.wait()
    }

    /// Ends the drain: every request still waiting for its response is answered 503 (and its
    /// handler cancelled), and so is every new one. Returns how many were waiting.
    func beginStopping() -> Int {
        let waiting = state.withLock { state in
            state.phase = .stopping
            defer { state.suspended = [:] }
            return state.suspended.values.map(\.exchange)
        }
        return waiting.filter { $0.deliver(shuttingDown) }.count
    }

    func stopped() {
        state.withLock { $0.phase = .stopped }
        sweeper.withLock { $0 }?.cancel()
    }
}

/// One wait for the server to go idle, ended by the idle server or by its time limit, whichever
/// comes first.
private final class IdleWaiter: Sendable {
    private struct State {
        var finished = false
        var continuation: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func finish() {
        let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let finished = state.withLock { state in
                if !state.finished { state.continuation = continuation }
                return state.finished
            }
            if finished { continuation.resume() }
        }
    }
}

/// `seconds` within `lowest`...one year (NaN: `lowest`), which a `Duration` always holds.
func boundedSeconds(_ seconds: TimeInterval, lowest: TimeInterval) -> TimeInterval {
    seconds.isNaN ? lowest : min(max(seconds, lowest), 365 * 86_400)
}
