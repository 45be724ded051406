import Foundation

extension DataLoader {
    /// Every limit and default of the loader.
    public struct Configuration: Sendable, Hashable {
        /// The most bytes a body may have: 50 MiB (52,428,800). A larger `Content-Length` is refused
        /// before the body is read; a body without one is cut off as soon as it passes the limit.
        /// Counted after any `Content-Encoding` is undone.
        public var maxBytes: Int = 50 << 20
        /// The most bytes of one body held in memory while it arrives: a larger body goes on in a
        /// file in `spillFolder` (and comes back as `Data` mapped from it), so downloads in flight
        /// take at most this much memory each. Default 1 MiB; 0 writes every body to a file.
        public var maxBodyBytesInMemory: Int = 1 << 20
        /// Where bodies larger than `maxBodyBytesInMemory` are written as they arrive: new files,
        /// readable by this user only, removed when the response goes (or moved into a cache).
        /// Default nil: the system's temporary folder. An `ImagePipeline` uses its disk cache's
        /// tmp/ folder, so a downloaded original is moved into the cache rather than copied.
        public var spillFolder: URL?
        /// The longest wait, in seconds, from the start of an attempt to the response's headers
        /// (connecting, TLS and the server's first answer), not counting a wait for one of the
        /// loader's connections to the server (see `reusesConnections`). Default 10.
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
        /// Whether `file://` URLs are read from the local disk: regular files only (a FIFO, a
        /// device or a directory fails with `io` at once), under the same byte limit and
        /// `overallTimeout`, with `defaultTTL` freshness and no validators. Default false: only
        /// http and https load.
        public var allowsFileURLs = false
        /// Whether requests share connections. Default true: one URLSession serves the loader, and
        /// libcurl keeps a connection open for the next request to the same scheme, host and port
        /// (HTTP/1.1 keep-alive, or HTTP/2 where it is negotiated over TLS), which saves a TCP (and
        /// TLS) handshake per request. At most 4 requests to one host run at once, over at most 4
        /// connections (HTTP/1.1) or sharing one (HTTP/2): a fifth waits, in arrival order, until
        /// one of them ends. The wait counts in `overallTimeout`, not in `connectTimeout`, which
        /// starts once the request runs. (libcurl's own queue is not used: there, a request
        /// waiting for a connection can be overtaken without end by later ones.)
        ///
        /// A response is read only as far as its framing says, and bytes past its end that libcurl
        /// reads with its headers make it close the connection. An attempt whose framing went wrong
        /// (no response could be read, say because bytes left after an earlier response came
        /// instead; a body shorter or longer than its `Content-Length`; an error in the middle of
        /// it) retires the session with every connection it holds when a kept connection can be to
        /// blame, that is when the server had answered on the session before: that attempt, when
        /// `retryPolicy` allows, and every later one run on a new session. A connection refused, a
        /// host not found, or any failure of a server that never answered on the session (a TLS
        /// handshake that fails, a reset before any reply) retires nothing, so one host that is
        /// down costs the connections to the others nothing. The limit: Debian 12's
        /// libcurl (7.88) reads a body no further than its `Content-Length` once the headers are
        /// in, and does not look for bytes waiting on an idle connection, so other bytes a server
        /// sends past a response's end wait there for the next request to the same scheme, host
        /// and port: bytes that are no HTTP fail that attempt (retried as above), but a whole
        /// forged response is read as its answer. It can only answer that server's own URLs, which
        /// the server could answer with any bytes anyway; a request to another server never sees it.
        ///
        /// False gives each attempt a URLSession (so a connection) of its own and sends
        /// `Connection: close`: no response can ever be read as the answer to another request.
        public var reusesConnections = true
        /// The hosts a loader may fetch from and follow redirects to, for services that fetch URLs
        /// they were handed: exact names (`images.example.com`) or `*.example.com` (every host under
        /// example.com). Checked on the first URL and on every redirect; anything else fails with
        /// `refusedURL` before a request is sent. It checks names, not addresses: it does not defend
        /// against DNS rebinding. Default nil: any host. (A redirect from https to http is refused
        /// whatever this says.)
        public var allowedHosts: [String]?
        /// Whether hosts whose address is not on the public internet are refused, for services that
        /// fetch URLs strangers hand them (SSRF): loopback, private, link-local, carrier-grade NAT,
        /// multicast, broadcast, unspecified, reserved and the other special-purpose IPv4 blocks;
        /// the IPv6 loopback, unspecified, unique-local (fc00::/7), link-local, site-local and
        /// multicast blocks, and an IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96) or 6to4
        /// form of a refused IPv4 address (see `IPAddress.nonPublicRange`). The first URL's host
        /// and every redirect's are resolved before a request is sent (an IP address is read as
        /// the system reads one, so `2130706433` and `0x7f.1` are 127.0.0.1), and the hop fails
        /// with `refusedURL` when any address of the host is refused. A name that does not
        /// resolve fails as one libcurl cannot resolve does (`network`, retried); the lookup
        /// counts in the hop's `connectTimeout` (`timeout` when it takes longer).
        ///
        /// An http hop is then sent to the address that was checked (the URL names the address,
        /// a `Host` header the host), so that no second lookup can answer a private address (DNS
        /// rebinding); the load's URLs and errors still name the host. An https hop cannot be
        /// pinned through URLSession: libcurl resolves its name again when it connects, so a name
        /// that answers a public address to the check and a private one to libcurl reaches the
        /// private address, where the TLS handshake fails unless that server holds a certificate
        /// valid for the name. Default false: any address.
        public var refusesPrivateAddresses = false
        /// Hosts that may have private addresses when `refusesPrivateAddresses` is on (an origin
        /// on the private network, say): the same patterns as `allowedHosts` (exact names, IP
        /// addresses as the URL writes them, IPv6 in brackets, or `*.example.com`), matched
        /// against the host in the URL, not its address. Their http hops are still resolved and
        /// sent to the address found. Default empty.
        public var allowedPrivateHosts: [String] = []
        /// The `User-Agent` header, unless `headers` or a request's headers name one. Default "imgcache".
        public var userAgent = "imgcache"
        /// Headers sent with every request, checked by `HTTPHeaderField`'s rules (an invalid one,
        /// or two names that differ only in case, make every load fail with `invalidArgument`). A
        /// request's header of the same name (compared case-insensitively) replaces one of these;
        /// a `User-Agent` here replaces `userAgent`, an `Accept` the loader's own (the formats the
        /// decoders read). `Authorization`, `Cookie` and `Proxy-Authorization` go only to the
        /// origin of each load's first URL, as `DataRequest.headers` says. Default empty.
        public var headers: [String: String] = [:]

        /// A configuration with every setting at the default its property states.
        public init() {}
    }
}
