import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The URLSessions a loader's attempts run on, without cache or cookies, whose callbacks go to
/// one `SessionDelegate`, one at a time.
///
/// When the loader reuses connections, every attempt runs on one shared session, whose connections
/// libcurl keeps open for the next request to the same scheme, host and port. An attempt whose
/// response did not end where its framing said (`AttemptFailure.framingAnomaly`) retires that
/// session when a connection it kept can be to blame: later attempts get a new one, with
/// connections of its own. Otherwise each attempt gets a session of its own and says
/// `Connection: close`.
///
/// A connection can be to blame when its server had answered on the session before (the
/// delegate remembers which did, up to `SessionDelegate.maxRememberedOrigins` servers) and the
/// attempt got a connection: a reply that is no HTTP, no reply at all, a body shorter or longer
/// than its `Content-Length` or broken off. It cannot when the connection was refused or the host
/// not found, nor for any failure of a server that had never answered on the session (say a TLS
/// handshake that failed, or a connection reset before any reply): libcurl kept no connection to
/// it, so a host that is down or refuses every request costs the other hosts' connections
/// nothing. (FoundationNetworking does not say whether a connection was reused, and reports a
/// failed TLS handshake as an unknown error, so a handshake that fails with a server that had
/// answered before retires the session too.)
///
/// A session that is done with (an attempt's own, a retired one, the shared one when the loader
/// goes away) finishes its tasks before it is invalidated, never cancels them: a failed transfer
/// has cancelled its own task already (see `Transfer`), and any other ends by itself.
final class LoaderSessions: Sendable {
    private let configuration: DataLoader.Configuration
    private let delegate = SessionDelegate()
    /// The session attempts share when connections are reused; nil until the first attempt
    /// and after one retires it.
    private let shared = Mutex<URLSession?>(nil)

    /// The most connections a loader opens to one scheme, host and port.
    static let connectionsPerHost = 4
    /// When connections are reused: at most `connectionsPerHost` attempts at once to one server,
    /// the others waiting in arrival order (libcurl's own queue is not fair). Nil otherwise: each
    /// attempt has a session, so a connection, of its own.
    let connectionSlots: ConnectionSlots?

    init(configuration: DataLoader.Configuration) {
        self.configuration = configuration
        connectionSlots = configuration.reusesConnections ? ConnectionSlots(capacity: Self.connectionsPerHost) : nil
    }

    deinit { close() }

    /// Lets the shared session finish its tasks, then invalidates it; an attempt after this
    /// opens a new one.
    func close() {
        shared.withLock { shared in
            defer { shared = nil }
            return shared
        }?.finishTasksAndInvalidate()
    }

    /// A data task for `request`, not yet resumed, whose callbacks go to `transfer`, and the session
    /// it belongs to, which `attemptEnded(on:anomaly:)` must be given when the attempt is over.
    func dataTask(with request: URLRequest, for transfer: Transfer) -> (task: URLSessionDataTask, session: URLSession) {
        let (task, session) = configuration.reusesConnections ? sharedDataTask(with: request) : ownDataTask(with: request)
        delegate.register(transfer, for: task)
        return (task, session)
    }

    private func ownDataTask(with request: URLRequest) -> (URLSessionDataTask, URLSession) {
        let session = makeSession()
        return (session.dataTask(with: request), session)
    }

    /// Made under the lock, so that no session is retired (invalidated) between being picked and
    /// being given the task: FoundationNetworking traps when a task is made on an invalidated session.
    private func sharedDataTask(with request: URLRequest) -> (URLSessionDataTask, URLSession) {
        shared.withLock { shared in
            let session = shared ?? makeSession()
            shared = session
            return (session.dataTask(with: request), session)
        }
    }

    /// The attempt that ran on `session` is over; `anomaly` says where its response's framing
    /// broke, if it did. A session of its own is let go; the shared one is retired when a
    /// connection it kept can be to blame for `anomaly`, unless an attempt retired it already.
    func attemptEnded(on session: URLSession, anomaly: AttemptFailure.FramingAnomaly?) {
        guard configuration.reusesConnections else { return session.finishTasksAndInvalidate() }
        guard let anomaly, !anomaly.couldNotConnect, delegate.hasAnswered(anomaly.origin, on: session) else { return }
        let isRetired = shared.withLock { shared in
            guard shared === session else { return false }
            shared = nil
            return true
        }
        if isRetired { session.finishTasksAndInvalidate() }
    }

    private func makeSession() -> URLSession {
        let session = URLSessionConfiguration.ephemeral
        session.urlCache = nil
        session.requestCachePolicy = .reloadIgnoringLocalCacheData
        session.httpCookieStorage = nil
        session.httpShouldSetCookies = false
        // libcurl (7.88) closes idle connections beyond four per transfer in flight: with at most
        // four to a host, none is ever closed between bursts, and HTTP/2 streams share one.
        session.httpMaximumConnectionsPerHost = Self.connectionsPerHost
        // The loader's own watch enforces the time-outs to the millisecond; URLSession's timers
        // (whole seconds on Linux: 0.5 s truncates to 0) are only a backstop behind the overall
        // time-out.
        let backstop = (configuration.overallTimeout + 1).rounded(.up)
        session.timeoutIntervalForRequest = backstop
        session.timeoutIntervalForResource = backstop
        // A session of its own already gives the attempt a fresh connection; this lets the server
        // close it at once too. The request's own headers are on its URLRequest (see
        // `DataLoader.urlRequest(for:)`).
        if !configuration.reusesConnections { session.httpAdditionalHeaders = ["Connection": "close"] }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return URLSession(configuration: session, delegate: delegate, delegateQueue: queue)
    }
}
