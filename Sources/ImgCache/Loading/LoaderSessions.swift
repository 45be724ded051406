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
/// response did not end where its framing said (`AttemptFailure.isFramingAnomaly`) retires that
/// session: later attempts get a new one, with connections of its own. Otherwise each attempt gets
/// a session of its own and says `Connection: close`.
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

    init(configuration: DataLoader.Configuration) {
        self.configuration = configuration
    }

    deinit {
        shared.withLock { $0 }?.finishTasksAndInvalidate()
    }

    /// A data task for `request`, not yet resumed, whose callbacks go to `transfer`, and the session
    /// it belongs to, which `attemptEnded(on:retiring:)` must be given when the attempt is over.
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

    /// The attempt that ran on `session` is over. A session of its own is let go; the shared one
    /// is retired when `retiring` (its framing went wrong), unless an attempt retired it already.
    func attemptEnded(on session: URLSession, retiring: Bool) {
        let isDone = !configuration.reusesConnections || retiring && shared.withLock { shared in
            guard shared === session else { return false }
            shared = nil
            return true
        }
        if isDone { session.finishTasksAndInvalidate() }
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
