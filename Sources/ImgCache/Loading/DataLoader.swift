import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads http and https URLs with URLSession (FoundationNetworking on Linux), within the limits of
/// its `Configuration`: a byte limit enforced while bytes arrive, connect, idle and overall
/// time-outs, at most five redirects, and retries with back-off for failures that may pass. It
/// reads `file://` URLs too when `Configuration.allowsFileURLs` says so: regular files only, under
/// the same byte limit and overall time-out (see `readFile(_:deadline:)`).
///
/// It keeps no cache of its own (URLSession's cache and cookies are off): it reports validators and
/// freshness, and answers a request with validators by a conditional GET. By default its requests
/// share one URLSession, whose connections stay open for the next request to the same server; an
/// attempt whose response was not framed as it said (no response, a body shorter or longer than
/// its `Content-Length`, an error in the middle of it) retires that session and its connections
/// when one of them can be to blame (its server had answered on the session before, and the
/// connection was not refused nor the host unknown), and is retried on a new one when the retry
/// policy allows. See `Configuration.reusesConnections` and `LoaderSessions`.
///
/// Each request sends the configuration's headers and its own (`DataRequest.headers`), and tells
/// its observer of every attempt, redirect and piece of body (`DataLoadEvent`). Redirects keep the
/// headers, except `Authorization`, `Cookie` and `Proxy-Authorization`, which go only to the origin
/// of the first URL, as curl does (FoundationNetworking by itself copies them to any host).
public final class DataLoader: DataLoading {
    /// The configuration the loader was made with; a setting out of its range makes every load
    /// fail.
    public let configuration: Configuration
    private let sessions: LoaderSessions
    /// The URL policy of `configuration` and its address check (when `refusesPrivateAddresses`),
    /// or why a setting is out of its range (every load throws it).
    private let policy: Result<(urls: URLPolicy, addresses: AddressScreen?), any Error>
    /// Reads `file://` URLs (one thread, made only when they are allowed), off the cooperative pool:
    /// regular files only, so that no read waits for a writer that may never come.
    private let fileReader: BlockingPool?
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A loader with its own connections and, when `file://` URLs are allowed, its own thread for them.
    ///
    /// - Parameters:
    ///   - configuration: limits, time-outs, retries, headers and URL policy. Default `Configuration()`.
    ///   - sleep: waits out the back-off between attempts; tests pass one that records the delays
    ///     instead of waiting. Default `Task.sleep(for:)`.
    public convenience init(
        configuration: Configuration = Configuration(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.init(configuration: configuration, sleep: sleep, lookUp: nil)
    }

    /// - Parameter lookUp: resolves host names for `refusesPrivateAddresses`; nil for getaddrinfo.
    ///   Tests pass one that answers names of their own, or hangs.
    init(
        configuration: Configuration, sleep: @escaping @Sendable (Duration) async throws -> Void,
        lookUp: AddressScreen.LookUp?
    ) {
        self.configuration = configuration
        self.sleep = sleep
        // Before the first URLSession, whose libcurl initialises OpenSSL.
        LibCrypto.initialize()
        sessions = LoaderSessions(configuration: configuration)
        policy = Result {
            try configuration.validate()
            let urls = try URLPolicy(allowedHosts: configuration.allowedHosts)
            guard configuration.refusesPrivateAddresses else { return (urls, nil) }
            let hosts = configuration.allowedPrivateHosts
            if let lookUp { return (urls, try AddressScreen(allowedPrivateHosts: hosts, lookUp: lookUp)) }
            return (urls, try AddressScreen(allowedPrivateHosts: hosts))
        }
        fileReader = configuration.allowsFileURLs ? BlockingPool(threadCount: 1, name: "imgcache-files") : nil
    }

    /// Ends the loader's own thread (for `file://` URLs) once its reads are done, and lets its
    /// shared session finish its transfers before invalidating it. For the pipeline that made the
    /// loader, when it shuts down: loads after this fail for `file://` URLs with
    /// `ImgCacheError.shutDown`.
    func shutdown() {
        fileReader?.shutdown()
        sessions.close()
    }

    /// The places of the attempts to each server when connections are reused (for tests).
    var connectionSlots: ConnectionSlots? { sessions.connectionSlots }

    /// Also throws `invalidArgument`, before any request is sent, for `request.headers` that break
    /// `HTTPHeaderField`'s rules or a configuration out of its ranges.
    public func load(_ request: DataRequest) async throws -> DataResponse {
        let url = request.url
        try HTTPHeaderField.check(request.headers, of: "request")
        switch url.scheme?.lowercased() {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { throw ImgCacheError.invalidURL(url.absoluteString) }
            if let reason = try policy.get().urls.refusal(for: url) {
                throw ImgCacheError.refusedURL(url: url.absoluteString, reason: reason)
            }
            return try await loadHTTP(request)
        case "file":
            guard let fileReader else { throw ImgCacheError.invalidURL(url.absoluteString) }
            let deadline = ContinuousClock.now + .seconds(configuration.overallTimeout)
            let response = try await fileReader.run { try self.readFile(url, deadline: deadline) }
            let size = Int64(response.data.count)
            request.observer?(.progress(receivedBytes: size, expectedBytes: size))
            return response
        default:
            throw ImgCacheError.invalidURL(url.absoluteString)
        }
    }

    /// Attempts until one succeeds, one fails for good, the retry policy runs out, or the next
    /// retry could not start before the overall deadline.
    private func loadHTTP(_ request: DataRequest) async throws -> DataResponse {
        let deadline = ContinuousClock.now + .seconds(configuration.overallTimeout)
        let policy = configuration.retryPolicy
        let prepared = urlRequest(for: request)
        var attempt = 1
        while true {
            do {
                let received = try await perform(
                    prepared.request, credentials: prepared.credentials, attempt: attempt, of: request, deadline: deadline)
                return response(received, for: request, attempts: attempt)
            } catch let failure as AttemptFailure {
                guard failure.isRetryable, attempt < policy.maxAttempts,
                      let delay = policy.delay(
                        beforeRetry: attempt, retryAfter: failure.retryAfter, jitter: Double.random(in: 0..<1)),
                      ContinuousClock.now + .seconds(delay) < deadline
                else { throw failure.error }
                try await sleep(.seconds(delay))
                attempt += 1
            }
        }
    }

    /// Attempt number `attempt` of `request`, sending `urlRequest` (whose `credentials` go only to
    /// its URL's origin): a data task under the watch of a `Transfer`, cancelled with the calling
    /// task. On the shared session it first waits for a place among the attempts to its server
    /// (`ConnectionSlots`). An attempt whose framing went wrong may retire the shared session
    /// (`LoaderSessions`).
    private func perform(
        _ urlRequest: URLRequest, credentials: [String: String], attempt: Int, of request: DataRequest,
        deadline: ContinuousClock.Instant
    ) async throws -> Transfer.Received {
        let limits = Transfer.Limits(
            maxBytes: configuration.maxBytes, maxRedirects: configuration.maxRedirects,
            connectTimeout: configuration.connectTimeout, requestTimeout: configuration.requestTimeout,
            overallTimeout: configuration.overallTimeout, policy: try policy.get().urls,
            addressScreen: try policy.get().addresses, connectionSlots: sessions.connectionSlots,
            bodyMemoryLimit: configuration.maxBodyBytesInMemory,
            spillFolder: configuration.spillFolder ?? FileManager.default.temporaryDirectory)
        let transfer = Transfer(
            url: request.url, isConditional: !request.validators.isEmpty, credentials: credentials,
            observer: request.observer, limits: limits, deadline: deadline)
        let watch = Task { await transfer.watchTimeouts() }
        var anomaly: AttemptFailure.FramingAnomaly?
        defer {
            watch.cancel()
            transfer.releaseConnectionSlot()
            if let session = transfer.session { sessions.attemptEnded(on: session, anomaly: anomaly) }
        }
        let sessions = self.sessions, observer = request.observer
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    transfer.start(urlRequest, continuation: continuation) { screened in
                        observer?(.attemptStarted(number: attempt))
                        return sessions.dataTask(with: screened, for: transfer)
                    }
                }
            } onCancel: {
                transfer.fail(CancellationError())
            }
        } catch let failure as AttemptFailure {
            anomaly = failure.framingAnomaly
            throw failure
        }
    }

    private func response(_ received: Transfer.Received, for request: DataRequest, attempts: Int) -> DataResponse {
        var validators = HTTPValidators(headers: received.headers)
        if received.statusCode == 304 { validators = validators.filled(from: request.validators) }
        var response = DataResponse(
            url: received.url, statusCode: received.statusCode, data: received.data,
            contentType: received.headers["content-type"], validators: validators,
            freshness: HTTPFreshness(headers: received.headers, receivedAt: Date(), defaultTTL: configuration.defaultTTL),
            attempts: attempts)
        response.spilledBody = received.spilled
        return response
    }
}
