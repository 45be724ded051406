import Foundation

extension DataLoader {
    /// Every limit and default of the loader.
    public struct Configuration: Sendable, Hashable {
        /// The most bytes a body may have: 50 MiB (52,428,800). A larger `Content-Length` is refused
        /// before the body is read; a body without one is cut off as soon as it passes the limit.
        /// Counted after any `Content-Encoding` is undone.
        public var maxBytes: Int = 50 << 20
        /// The longest wait, in seconds, from the start of an attempt to the response's headers
        /// (connecting, TLS and the server's first answer). Default 10.
        public var connectTimeout: TimeInterval = 10
        /// The longest wait, in seconds, between two pieces of the body once the headers are in:
        /// a stalled transfer fails even while the overall time-out is far. Default 30.
        public var requestTimeout: TimeInterval = 30
        /// The longest a whole load may take, in seconds: every attempt and back-off together.
        /// A retry that could not start before it is not made. Default 60.
        public var overallTimeout: TimeInterval = 60
        /// The most redirects followed; one more fails with `.network`. Default 5. A redirect to a
        /// scheme other than http or https is always refused.
        public var maxRedirects: Int = 5
        /// Retries with back-off for connection failures, 5xx and 429. Default `RetryPolicy()`:
        /// 3 attempts, 0.5 s doubling up to 8 s with full jitter, `Retry-After` up to 30 s.
        public var retryPolicy = RetryPolicy()
        /// How long, in seconds, a response without `Cache-Control` max-age, no-cache or no-store,
        /// nor `Expires`, stays fresh. Default 3600 (one hour); no heuristic freshness is used.
        public var defaultTTL: TimeInterval = 3600
        /// Whether `file://` URLs are read from the local disk, under the same byte limit, with
        /// `defaultTTL` freshness and no validators. Default false: only http and https load.
        public var allowsFileURLs = false
        /// Whether requests share connections. Default true: one URLSession serves the loader, and
        /// libcurl keeps a connection open for the next request to the same scheme, host and port
        /// (HTTP/1.1 keep-alive), which saves a TCP (and TLS) handshake per request.
        ///
        /// A response is read only as far as its framing says, and an attempt whose framing went
        /// wrong (no response could be read, say because bytes left by the response before it were
        /// read instead; a body shorter or longer than its `Content-Length`; an error in the middle
        /// of it) retires the session with every connection it holds: that attempt, if `retryPolicy`
        /// allows, and every later one run on a new session. Bytes past a response's declared end
        /// that arrive with its last bytes make libcurl close the connection. The limit: Debian 12's
        /// libcurl (7.88) does not notice bytes that arrive later on an idle connection, so a whole
        /// forged response a server sends there is read as its answer to the next request to the
        /// same scheme, host and port. It can only answer that server's own URLs, which it could
        /// answer with any bytes anyway; a request to another server never sees it.
        ///
        /// False gives each attempt a URLSession (so a connection) of its own and sends
        /// `Connection: close`: no response can ever be read as the answer to another request.
        public var reusesConnections = true
        /// The `User-Agent` header. Default "imgcache".
        public var userAgent = "imgcache"

        public init() {}
    }
}
