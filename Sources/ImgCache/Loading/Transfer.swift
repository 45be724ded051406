import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One attempt of an HTTP load: a URLSession data task and what its delegate callbacks have
/// brought so far. It enforces the byte limit, the redirect limit and the time-outs as the
/// transfer goes, and resumes its continuation exactly once: with the body when the task
/// completes, or with a failure the moment one is decided.
///
/// A failed transfer cancels its data task at once, so its connection is closed and the server
/// sees the hang-up, whether or not the headers are in. FoundationNetworking traps when a redirect
/// decision reaches a task that was cancelled while it waited for it, so a decision is handed over
/// under the transfer's lock and only while the transfer runs: once it has failed, a pending
/// redirect gets no answer and the cancel ends the task. The one exception is a refused redirect,
/// whose task is left to complete by itself with the 3xx it was answered.
///
/// With an `AddressScreen` (`refusesPrivateAddresses`), every hop is screened before its request
/// goes: the first before the task is made, each redirect before it is answered. A name's lookup
/// runs on a thread of its own and the task is made, or the redirect answered, from there when it
/// comes back: URLSession's delegate queue, which every transfer of the session shares, never
/// waits for a lookup (FoundationNetworking lets a redirect be answered later, from any thread),
/// and the hop's connect time-out, which counts the lookup, fails a transfer whose lookup hangs.
///
/// On a shared session (`ConnectionSlots`), the first request waits, once screened, for a place
/// among the attempts to its server: its connect time-out does not count that wait, which only
/// the overall deadline bounds.
final class Transfer: Sendable {
    /// The part of the configuration an attempt enforces.
    struct Limits: Sendable {
        var maxBytes: Int
        var maxRedirects: Int
        var connectTimeout: TimeInterval
        var requestTimeout: TimeInterval
        var overallTimeout: TimeInterval
        /// Which redirects may be followed (never https to http; only allowed hosts).
        var policy: URLPolicy
        /// Screens each hop's addresses, when private ones are refused.
        var addressScreen: AddressScreen?
        /// The places of the attempts to one server, when they share a session.
        var connectionSlots: ConnectionSlots?
        /// Bytes of body held in memory; the rest goes to a file in `spillFolder`.
        var bodyMemoryLimit: Int
        var spillFolder: URL
    }

    /// A finished response: a 2xx with its whole body, or a 304.
    struct Received: Sendable {
        var url: URL
        var statusCode: Int
        /// Header names in lower case.
        var headers: [String: String]
        var data: Data
        /// The file `data` is mapped from, when the body was too large to keep in memory.
        var spilled: SpilledBody?
    }

    /// Where the transfer is with its place among the attempts to its server (`ConnectionSlots`).
    private enum Slot {
        case none
        case waiting(since: ContinuousClock.Instant)
        case held(HTTPOrigin)
    }

    private struct State: ~Copyable {
        var task: URLSessionDataTask?
        /// The session the task was made on.
        var session: URLSession?
        /// The task is being made (outside the lock): a failure meanwhile is resumed once it is in.
        var isMakingTask = false
        var continuation: CheckedContinuation<Received, Error>?
        var response: HTTPURLResponse?
        var headers: [String: String] = [:]
        var body: ResponseBodyBuffer
        var redirects = 0
        /// A redirect was refused: URLSession completes the task with the 3xx by itself.
        var refusedRedirect = false
        /// Set once the continuation is resumed (or is to be resumed at once by `start`).
        var isFinished = false
        /// A failure decided before `start` (cancelled before it began).
        var earlyFailure: Error?
        /// The transfer's place among the attempts to its server.
        var slot = Slot.none
        /// When the current hop started (the request was sent or a redirect followed), moved later
        /// by the time spent waiting for a connection slot.
        var hopStart: ContinuousClock.Instant
        /// The current hop's URL: `url`, or the last followed redirect's (the host's name even when
        /// the request went to the address it was screened at).
        var hopURL: URL
        /// The server the current hop goes to: `url`'s, or the last followed redirect's (its
        /// address when screening pinned it to one).
        var hopOrigin: HTTPOrigin
        /// When the last piece of the body arrived.
        var lastActivity: ContinuousClock.Instant
        /// The final response's `Content-Length`, when it has no `Content-Encoding`.
        var expectedBytes: Int64?
    }

    let url: URL
    private let isConditional: Bool
    /// The credential headers of the first request, sent only to `origin`.
    private let credentials: [String: String]
    private let origin: HTTPOrigin
    /// Told of redirects and of the body's progress, under the lock, so in order and never after
    /// the transfer ended.
    private let observer: (@Sendable (DataLoadEvent) -> Void)?
    private let limits: Limits
    private let deadline: ContinuousClock.Instant
    private let state: Mutex<State>

    /// - Parameters:
    ///   - isConditional: the request carries validators, so a 304 is an answer and not an error.
    ///   - credentials: the request's credential headers (`HTTPHeaderField.credentialNames`), by the
    ///     names it sends them under: dropped on a redirect to another origin than `url`'s, sent
    ///     again on one back to it.
    ///   - deadline: when the whole load (every attempt) must be over.
    init(
        url: URL, isConditional: Bool, credentials: [String: String], observer: (@Sendable (DataLoadEvent) -> Void)?,
        limits: Limits, deadline: ContinuousClock.Instant
    ) {
        self.url = url
        self.isConditional = isConditional
        self.credentials = credentials
        origin = HTTPOrigin(url)
        self.observer = observer
        self.limits = limits
        self.deadline = deadline
        let now = ContinuousClock.now
        state = Mutex(State(
            body: ResponseBodyBuffer(memoryLimit: limits.bodyMemoryLimit, folder: limits.spillFolder),
            hopStart: now, hopURL: url, hopOrigin: origin, lastActivity: now))
    }

    /// The session of the transfer's task, once one is made: set before the continuation is
    /// resumed, whenever a task was made.
    var session: URLSession? {
        state.withLock { $0.session }
    }

    /// Screens `request` (when there is an address screen), waits for a connection slot (when there
    /// are slots), makes the data task for what is to be sent with `makeTask` (whose delegate must
    /// route its callbacks here, and which returns the task's session), starts it, and resumes
    /// `continuation` when the transfer ends. A transfer that failed before it started (it was
    /// cancelled) makes no task and fails at once; a refused or unresolved host fails it without
    /// a task.
    func start(
        _ request: URLRequest, continuation: CheckedContinuation<Received, Error>,
        makeTask: @escaping @Sendable (URLRequest) -> (task: URLSessionDataTask, session: URLSession)
    ) {
        let failure: Error? = state.withLock { state in
            if let failure = state.earlyFailure { return failure }
            state.continuation = continuation
            state.hopStart = .now
            return nil
        }
        if let failure { return continuation.resume(throwing: failure) }
        guard let screen = limits.addressScreen else { return send(request, makeTask: makeTask) }
        screen.screen(request) { [self] verdict in
            switch verdict {
            case .send(let screened): send(screened, makeTask: makeTask)
            case .refuse(let reason): fail(AttemptFailure(error: .refusedURL(url: url.absoluteString, reason: reason), isRetryable: false))
            case .unresolved(let detail): fail(AttemptFailure.connection(url, "host not found (\(detail))"))
            }
        }
    }

    /// Makes the task for `request` and starts it, unless the transfer has failed; with connection
    /// slots, once the request has a place among the attempts to its server.
    private func send(
        _ request: URLRequest, makeTask: @escaping @Sendable (URLRequest) -> (task: URLSessionDataTask, session: URLSession)
    ) {
        guard let slots = limits.connectionSlots, let target = request.url else { return startTask(request, makeTask: makeTask) }
        let origin = HTTPOrigin(target)
        let waits = state.withLock { state in
            guard !state.isFinished else { return false }
            state.slot = .waiting(since: .now)
            return true
        }
        guard waits else { return }
        slots.enter(origin) { [self] in
            let proceeds = state.withLock { state in
                guard case .waiting(let since) = state.slot, !state.isFinished else {
                    state.slot = .none
                    return false
                }
                state.slot = .held(origin)
                state.hopStart += .now - since
                return true
            }
            guard proceeds else { return slots.leave(origin) }
            startTask(request, makeTask: makeTask)
        }
    }

    /// The attempt is over: the connection slot it holds, if any, goes to the next one waiting.
    func releaseConnectionSlot() {
        let held: HTTPOrigin? = state.withLock { state in
            guard case .held(let origin) = state.slot else { return nil }
            state.slot = .none
            return origin
        }
        if let held { limits.connectionSlots?.leave(held) }
    }

    /// Makes the task for `request` and starts it, unless the transfer has failed.
    private func startTask(
        _ request: URLRequest, makeTask: @Sendable (URLRequest) -> (task: URLSessionDataTask, session: URLSession)
    ) {
        let proceeds = state.withLock { state in
            guard !state.isFinished else { return false }
            state.isMakingTask = true
            if let target = request.url { state.hopOrigin = HTTPOrigin(target) }
            return true
        }
        guard proceeds else { return }
        // Outside the lock: URLSession's calls wait for its work queue. A failure from here on
        // resumes the continuation and cancels the task, here if `fail` came before the task did.
        let (task, session) = makeTask(request)
        let (failure, continuation) = state.withLock { state -> (Error?, CheckedContinuation<Received, Error>?) in
            state.task = task
            state.session = session
            state.isMakingTask = false
            guard state.isFinished else { return (nil, nil) }
            defer { state.continuation = nil }
            return (state.earlyFailure, state.continuation)
        }
        task.resume()
        guard let failure else { return }
        Self.cancel(task)
        continuation?.resume(throwing: failure)
    }

    /// Ends the transfer with `error` at once, unless it has already ended. While the task is
    /// being made, the continuation is resumed once it is in (so that `session` is set).
    func fail(_ error: Error) {
        let ending = state.withLock { state in end(with: error, &state) }
        Self.finish(ending, with: error)
    }

    /// What ending the transfer leaves to do once the lock is released: the continuation to
    /// resume, and the task to cancel.
    private typealias Ending = (continuation: CheckedContinuation<Received, Error>?, task: URLSessionDataTask?)

    /// Ends the transfer with `error` under the lock, unless it has already ended; `finish` does
    /// the rest once the lock is released. A redirect refused under the lock ends the transfer
    /// there too, before URLSession can complete the task with the 3xx.
    private func end(with error: Error, _ state: inout State) -> Ending {
        guard !state.isFinished else { return (nil, nil) }
        state.isFinished = true
        state.body.discard()
        if state.continuation == nil || state.isMakingTask {
            state.earlyFailure = error
            return (nil, nil)
        }
        defer { state.continuation = nil }
        return (state.continuation, state.refusedRedirect ? nil : state.task)
    }

    private static func finish(_ ending: Ending, with error: Error) {
        ending.continuation?.resume(throwing: error)
        cancel(ending.task)
    }

    /// Cancels `task` off the calling thread. URLSession's `cancel` waits for the session's work
    /// queue, which a fast body can keep busy for seconds; the delegate queue, shared by every
    /// transfer of the session, must not wait with it.
    private static func cancel(_ task: URLSessionDataTask?) {
        guard let task else { return }
        DispatchQueue.global().async { task.cancel() }
    }

    /// Watches the time-outs until the transfer ends or the calling task is cancelled: the headers
    /// must come within `connectTimeout` of each hop (not counting a wait for a connection slot),
    /// each piece of the body within `requestTimeout` of the last, and everything before the
    /// load's deadline.
    func watchTimeouts() async {
        while !Task.isCancelled {
            let next: (instant: ContinuousClock.Instant, seconds: TimeInterval)? = state.withLock { state in
                guard !state.isFinished else { return nil }
                if case .waiting = state.slot { return (deadline, limits.overallTimeout) }
                let phase = state.response == nil
                    ? (state.hopStart + .seconds(limits.connectTimeout), limits.connectTimeout)
                    : (state.lastActivity + .seconds(limits.requestTimeout), limits.requestTimeout)
                return phase.0 < deadline ? phase : (deadline, limits.overallTimeout)
            }
            guard let next else { return }
            let now = ContinuousClock.now
            if now >= next.instant {
                fail(AttemptFailure(error: .timeout(url: url.absoluteString, seconds: next.seconds), isRetryable: false))
                return
            }
            // The deadline can move earlier (headers arrive, and a short idle time-out replaces
            // the connect time-out): look again at least every 100 ms.
            try? await Task.sleep(until: min(next.instant, now + .milliseconds(100)), clock: .continuous)
        }
    }

    // MARK: Delegate callbacks

    /// A redirect to `request` by `response`: followed (`answer` gets the request, with the
    /// credentials only if it goes to the first URL's origin) or refused (`answer` gets nil, the
    /// transfer fails, and URLSession completes the task with the 3xx). A transfer that has already
    /// failed never answers: its task is cancelled instead. With an address screen, the target is
    /// screened first, and answered from the lookup's thread when its host is a name.
    func redirect(
        to request: URLRequest, by response: HTTPURLResponse, answer: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // The Location itself is checked: FoundationNetworking turns a `file:///path` target into
        // the path on the redirecting server. It is read against the hop's URL, which names the
        // host even when the request went to its address.
        let location = response.value(forHTTPHeaderField: "Location") ?? ""
        let (refused, screened): ((AttemptFailure, Ending)?, URLRequest?) = state.withLock { state in
            guard !state.isFinished else { return (nil, nil) }
            let target = URL(string: location, relativeTo: state.hopURL)?.absoluteURL ?? request.url
            let scheme = target?.scheme?.lowercased()
            state.redirects += 1
            state.hopStart = .now
            var refusal: AttemptFailure?
            if scheme != "http" && scheme != "https" {
                refusal = .permanent(url, "refused a redirect to \(location): only http and https are loaded")
            } else if let target, let reason = limits.policy.refusal(redirectFrom: state.hopURL, to: target) {
                refusal = AttemptFailure(error: .refusedURL(url: target.absoluteString, reason: reason), isRetryable: false)
            } else if state.redirects > limits.maxRedirects {
                refusal = .permanent(url, "too many redirects (more than \(limits.maxRedirects))")
            }
            // Answered under the lock, so that no cancel can come between the check and the answer
            // (the answer only queues work on URLSession's queue, ahead of any later cancel), and
            // ended first, so that the 3xx URLSession then completes the task with is not the error.
            state.refusedRedirect = refusal != nil
            if let refusal {
                let ending = end(with: refusal, &state)
                answer(nil)
                return ((refusal, ending), nil)
            }
            var next = forwarded(request)
            // Screened first: FoundationNetworking read a relative Location against the address.
            if limits.addressScreen != nil, let target {
                next.url = target
                return (nil, next)
            }
            follow(next, sent: next, state: &state, answer: answer)
            return (nil, nil)
        }
        if let (refusal, ending) = refused { Self.finish(ending, with: refusal) }
        guard let screened, let screen = limits.addressScreen else { return }
        screen.screen(screened) { [self] verdict in
            let refused: (AttemptFailure, Ending)? = state.withLock { state in
                guard !state.isFinished, let target = screened.url else { return nil }
                let refusal: AttemptFailure
                switch verdict {
                case .send(let request):
                    follow(screened, sent: request, state: &state, answer: answer)
                    return nil
                case .refuse(let reason):
                    refusal = AttemptFailure(
                        error: .refusedURL(url: target.absoluteString, reason: "refused a redirect to \(target.absoluteString): \(reason)"),
                        isRetryable: false)
                case .unresolved(let detail):
                    refusal = .connection(target, "host not found (\(detail))")
                }
                state.refusedRedirect = true
                let ending = end(with: refusal, &state)
                answer(nil)
                return (refusal, ending)
            }
            if let (refusal, ending) = refused { Self.finish(ending, with: refusal) }
        }
    }

    /// Follows the redirect to `next` (the request naming the host) by answering `sent` (it, or
    /// it pinned to the address screened), under the lock.
    private func follow(
        _ next: URLRequest, sent: URLRequest, state: inout State, answer: @Sendable (URLRequest?) -> Void
    ) {
        if let target = next.url, let address = sent.url {
            state.hopURL = target
            state.hopOrigin = HTTPOrigin(address)
            observer?(.redirected(to: target))
        }
        answer(sent)
    }

    /// `request` with the credentials set if it goes to `origin`, else removed. FoundationNetworking
    /// copies every header of the request that was redirected into the next one.
    private func forwarded(_ request: URLRequest) -> URLRequest {
        var request = request
        let sameOrigin = request.url.map { HTTPOrigin($0) == origin } ?? false
        for (name, value) in credentials {
            request.setValue(sameOrigin ? value : nil, forHTTPHeaderField: name)
        }
        return request
    }

    /// The final response's headers are in: a status that is not a success, or a
    /// `Content-Length` over the byte limit, ends the transfer before its body is read.
    func receive(_ response: URLResponse) {
        guard let response = response as? HTTPURLResponse else {
            return fail(AttemptFailure.permanent(url, "not an HTTP response"))
        }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields {
            headers[name.lowercased()] = value
        }
        let declared = Int(clamping: response.expectedContentLength)
        let status = response.statusCode
        let failure: Error? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.response = response
            state.headers = headers
            state.lastActivity = .now
            if (headers["content-encoding"] ?? "identity").lowercased() == "identity" {
                state.expectedBytes = headers["content-length"].flatMap { Int64($0) }
            }
            if (status == 304 && isConditional) || (200...299).contains(status) {
                if status != 304, declared > limits.maxBytes {
                    return ImgCacheError.tooLarge(bytes: declared, limit: limits.maxBytes)
                }
                return nil
            }
            return AttemptFailure.status(status, url: state.hopURL, headers: headers)
        }
        if let failure { fail(failure) }
    }

    /// A piece of the body, reported to the observer; the transfer fails as soon as the body passes
    /// the byte limit (or cannot be written to its file).
    func receive(_ data: Data) {
        let failure: Error? = state.withLock { state in
            guard !state.isFinished, state.response?.statusCode != 304 else { return nil }
            state.lastActivity = .now
            let total = state.body.count + data.count
            guard total <= limits.maxBytes else { return ImgCacheError.tooLarge(bytes: total, limit: limits.maxBytes) }
            do {
                try state.body.append(data)
                observer?(.progress(receivedBytes: Int64(state.body.count), expectedBytes: state.expectedBytes))
                return nil
            } catch {
                return error
            }
        }
        if let failure { fail(failure) }
    }

    /// The data task ended, with `error` from URLSession or without one. A failure found here
    /// (no response, a body cut short, too long or broken off) is a framing anomaly of the hop's
    /// server.
    func complete(_ error: Error?) {
        enum Outcome {
            case received(Received, CheckedContinuation<Received, Error>?)
            /// The response was not framed as it said, or URLSession failed it (an `AttemptFailure`
            /// with its `framingAnomaly`), or the body could not be kept (its file not mapped).
            case failed(Error)
        }
        let outcome: Outcome? = state.withLock { state in
            guard !state.isFinished else { return nil }
            guard let response = state.response else {
                var failure = error.map { AttemptFailure.urlSession($0, url: url, timeout: limits.overallTimeout) }
                    ?? .connection(url, "no response")
                failure.framingAnomaly = AttemptFailure.FramingAnomaly(
                    origin: state.hopOrigin, couldNotConnect: error.map(AttemptFailure.isConnectFailure) ?? false)
                return .failed(failure)
            }
            let responseURL = state.hopURL
            let anomaly = AttemptFailure.FramingAnomaly(origin: state.hopOrigin, couldNotConnect: false)
            let isNotModified = response.statusCode == 304
            // A body cut short is reported as such whether or not URLSession noticed (libcurl's
            // "transfer closed with N bytes remaining" comes as an unknown URLError).
            if !isNotModified, var failure = Self.lengthMismatch(state.body.count, state.headers, responseURL) {
                failure.framingAnomaly = anomaly
                return .failed(failure)
            }
            if let error {
                // libcurl's failures in the middle of a body come as unknown URLErrors: retryable.
                var failure = AttemptFailure.urlSession(error, url: url, timeout: limits.overallTimeout)
                failure.isRetryable = failure.isRetryable || (error as? URLError)?.code == .unknown
                failure.framingAnomaly = anomaly
                return .failed(failure)
            }
            let body: (data: Data, spilled: SpilledBody?)
            do {
                body = isNotModified ? (Data(), nil) : try state.body.finish()
            } catch {
                return .failed(error)
            }
            state.isFinished = true
            defer { state.continuation = nil }
            let received = Received(
                url: responseURL, statusCode: response.statusCode, headers: state.headers, data: body.data,
                spilled: body.spilled)
            return .received(received, state.continuation)
        }
        switch outcome {
        case .received(let received, let continuation)?:
            continuation?.resume(returning: received)
        case .failed(let error)?:
            fail(error)
        case nil:
            break
        }
    }

    /// URLSession on Linux can end a body cut short without an error: the byte count is checked
    /// against `Content-Length` here (unless a `Content-Encoding` makes the two differ).
    private static func lengthMismatch(_ count: Int, _ headers: [String: String], _ url: URL) -> AttemptFailure? {
        guard let header = headers["content-length"], let declared = Int(header),
              (headers["content-encoding"] ?? "identity").lowercased() == "identity",
              count != declared
        else { return nil }
        if count < declared {
            return .connection(url, "truncated body: \(count) of \(declared) bytes")
        }
        return .connection(url, "body of \(count) bytes is longer than its Content-Length \(declared)")
    }
}
