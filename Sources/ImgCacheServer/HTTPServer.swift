import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd for `imgcache serve`: GET and HEAD, kept-alive
/// connections, an async handler on Swift concurrency, limits with back-pressure, graceful drain.
///
/// libmicrohttpd's threads (`Configuration.threads`) poll the sockets with epoll, read requests
/// and write responses (files with `sendfile`); they never wait for a handler: a request that
/// reaches the handler has its connection suspended, its handler runs as a task, and the
/// connection is resumed when the response is ready; an immediate handler may answer at once
/// what it can answer without waiting (a stored file, say). At most `Configuration.maxInFlight`
/// handlers run at once, `maxQueued` more requests wait, and beyond that the answer is 503 with
/// `Retry-After`.
///
/// The server answers these itself, each with one line of plain text: 414 and 431 to a request
/// target or header over `maxRequestTargetBytes` or `maxHeaderBytes`; 405 (with `Allow: GET,
/// HEAD`) to other methods; 400 to a target that is not a path of visible ASCII, or a GET or HEAD
/// with a body; 503 with `Retry-After` when full, when no slot was free within `requestTimeout`,
/// or when shutting down; 504 when the handler ran past `requestTimeout`; 500 when a response's
/// file cannot be opened or its status or headers cannot be sent. libmicrohttpd answers
/// malformed requests (400) and requests that do not fit in `connectionMemoryBytes` itself
/// (see there).
public final class HTTPServer: Sendable {
    /// Answers one request. Runs on Swift's concurrency (never on libmicrohttpd's threads), as
    /// many at once as `Configuration.maxInFlight`; cancelled when its request times out, or when
    /// a shutdown's drain time runs out.
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    /// Answers a request at once, on the libmicrohttpd thread that read it, when it can without
    /// waiting (from memory, or a file it only has to open); nil hands the request to the
    /// `Handler`, and so does a response whose file does not open. It must be quick and never
    /// block: the thread's other connections wait while it runs. Its answers take no handler
    /// slot, so they are given even when the server is full.
    public typealias ImmediateHandler = @Sendable (HTTPRequest) -> HTTPResponse?

    /// A response as the server sent it (the handler's, or one the server made itself), for an
    /// access log and metrics.
    public struct ResponseRecord: Sendable, Hashable {
        /// The method as sent ("" when the request line did not parse).
        public let method: String
        /// The request target (path and query) exactly as sent.
        public let target: String
        public let status: Int
        /// Body bytes sent: 0 for HEAD.
        public let bodyBytes: Int
        /// From the request line's arrival to the response being queued.
        public let seconds: Double
        /// The handler's `HTTPResponse.note`; nil for a response the server made.
        public let note: String?
    }

    /// Told of every response the server queues, on the thread that queues it (libmicrohttpd's):
    /// it must be quick and never block.
    public typealias ResponseObserver = @Sendable (ResponseRecord) -> Void

    /// The address listened on, with the port the system picked when port 0 was asked for.
    public let address: NetworkAddress
    public let configuration: Configuration
    private let core: ServerCore
    private let daemon: MHDDaemon
    private let shutdownTask = Mutex<Task<ShutdownSummary, Never>?>(nil)

    /// Starts listening on `configuration.address` and answering with `handler`; the server runs
    /// until `shutdown(drainSeconds:)`, or until it is released: then it stops at once, closing
    /// every connection (handlers still running are cancelled, their answers dropped).
    /// - Parameters:
    ///   - observer: told of every response queued (default nil).
    ///   - immediateHandler: answers the requests it can at once (default nil: the handler answers all).
    public init(
        configuration: Configuration = Configuration(), observer: ResponseObserver? = nil,
        immediateHandler: ImmediateHandler? = nil, handler: @escaping Handler
    ) throws(HTTPServerError) {
        self.configuration = configuration
        let core = ServerCore(
            configuration: configuration, observer: observer, immediateHandler: immediateHandler, handler: handler)
        do {
            daemon = try MHDDaemon(address: configuration.address, configuration: configuration, core: core)
        } catch {
            throw HTTPServerError(address: configuration.address, reason: error.message)
        }
        self.core = core
        self.address = configuration.address.with(port: daemon.port)
    }

    deinit {
        if core.phase != .stopped {
            _ = core.beginStopping()
            daemon.stop()
            core.stopped()
        }
    }

    /// Running, draining (from the first `shutdown(drainSeconds:)` call) or stopped: for a
    /// health endpoint that says "draining" so that a load balancer stops sending requests.
    public var state: State {
        switch core.phase {
        case .running: .running
        case .draining, .stopping: .draining
        case .stopped: .stopped
        }
    }

    /// Connections, requests in flight and queued, refusals and time-outs, as of now.
    public var statistics: Statistics {
        core.statistics
    }

    /// Stops gracefully: refuses new connections at once (`MHD_quiesce_daemon`, and the listening
    /// socket shut down), answers the requests in flight and any new ones on connections already
    /// open (with `Connection: close`) for up to `drainSeconds` (default 10), then answers 503 to
    /// those still waiting, gives those answers up to 1 s more to be written, and closes every
    /// connection. Returns once the server has stopped and released its port; calling it again
    /// waits for the same shutdown.
    @discardableResult
    public func shutdown(drainSeconds: TimeInterval = 10) async -> ShutdownSummary {
        let task = shutdownTask.withLock { task in
            if let task { return task }
            // Not listening before the state says draining: whoever sees `.draining` finds new
            // connections refused.
            daemon.stopListening()
            let inFlight = core.beginDraining()
            let started = Task { await self.finishShutdown(drainSeconds: drainSeconds, inFlight: inFlight) }
            task = started
            return started
        }
        return await task.value
    }

    private func finishShutdown(drainSeconds: TimeInterval, inFlight: Int) async -> ShutdownSummary {
        await core.waitUntilIdle(seconds: drainSeconds)
        let drained = core.statistics.requestsDrained
        let cutOff = core.beginStopping()
        if cutOff > 0 {
            await core.waitUntilIdle(seconds: 1)
        }
        daemon.stop()
        core.stopped()
        return ShutdownSummary(requestsInFlight: inFlight, requestsDrained: drained, requestsCutOff: cutOff)
    }
}
