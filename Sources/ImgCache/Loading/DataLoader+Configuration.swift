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
        /// Whether a connection stays open for the next request to the same host. Default false:
        /// every request says `Connection: close`. With Debian 12's libcurl (7.88), a server that
        /// sends more body than its `Content-Length` leaves the excess on a reused connection,
        /// where it is read as the next response, so one broken server response could poison
        /// the cache entry of another URL. Turn on for trusted servers to save a TCP (and TLS)
        /// handshake per request.
        public var reusesConnections = false
        /// The `User-Agent` header. Default "imgcache".
        public var userAgent = "imgcache"

        public init() {}
    }
}
