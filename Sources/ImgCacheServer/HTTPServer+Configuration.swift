import Foundation

extension HTTPServer {
    /// Every limit of the server, with its default.
    public struct Configuration: Sendable, Hashable {
        /// Where to listen: a numeric IPv4 or IPv6 address and a port. Default 127.0.0.1:8080;
        /// port 0 takes any free port, which `HTTPServer.address` then reports.
        public var address: NetworkAddress = .loopback(port: 8080)
        /// The most connections open at once (at least 1), idle kept-alive ones included
        /// (`MHD_OPTION_CONNECTION_LIMIT`). Default 1024. While it is reached, libmicrohttpd stops
        /// accepting: new connections wait in the system's listen queue until one closes.
        public var maxConnections: Int = 1024
        /// libmicrohttpd's threads that read requests and write responses, each polling its
        /// share of the connections with its own epoll (`MHD_OPTION_THREAD_POOL_SIZE`), and each
        /// running the immediate handler for its connections. Default: one per core, at most 4.
        /// 1 to 64.
        public var threads: Int = min(4, ProcessInfo.processInfo.activeProcessorCount)
        /// How long, in seconds, a connection may go without a byte read or written before it is
        /// closed (`MHD_OPTION_CONNECTION_TIMEOUT`, whole seconds, rounded up): a client that
        /// stops sending its request, or an idle kept-alive connection. Default 10. 0: never.
        /// It is not counted while a handler runs (see `requestTimeout`). A client that keeps
        /// sending a byte now and then is bounded by `connectionMemoryBytes` and
        /// `maxConnections` instead: put nginx in front (`client_header_timeout`) to cut those off.
        public var idleTimeout: TimeInterval = 10
        /// The longest request target (path and query) answered, in bytes. Default 8192, as
        /// nginx's default buffers. A longer one is answered 414.
        public var maxRequestTargetBytes: Int = 8 << 10
        /// The most bytes of request line and header fields together (CRLFs included). Default
        /// 16,384. More is answered 431.
        public var maxHeaderBytes: Int = 16 << 10
        /// Memory for each connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`), in which the request
        /// line and header fields must fit while they are read (with about 64 bytes of
        /// bookkeeping per field), and the response's headers while they are written. Default
        /// 64 KiB (65,536; at least 4,096 is used), taken from the system as it is used. A request
        /// that does not fit never reaches the server's own checks: libmicrohttpd answers it
        /// itself, 414 while the request line is not complete, 431 once it is, each with its own
        /// one-line HTML body, or closes the connection without an answer when too little room
        /// is left for one; it then closes the connection. With the default that takes a request
        /// of about 65,000 bytes, or about 850 small fields. Keep it well above `maxHeaderBytes`.
        public var connectionMemoryBytes: Int = 64 << 10
        /// The most handlers running at once (at least 1). Default 64. A request beyond it waits in a queue,
        /// first come, first served.
        public var maxInFlight: Int = 64
        /// The most requests waiting for a handler. Default 256. A request beyond it is answered
        /// 503 with `Retry-After` at once; 0 queues nothing.
        public var maxQueued: Int = 256
        /// How long, in seconds, a request may take from the end of its headers to its response.
        /// Default 30. When it passes, a request still waiting for a handler is answered 503 with
        /// `Retry-After` (it never ran: the server is busy), and one whose handler is running is
        /// answered 504 (the handler, in practice the origin or the render behind it, was too
        /// slow) and its handler task cancelled; that handler keeps its place among `maxInFlight`
        /// until it returns. Taken within 1 ms...1 year.
        public var requestTimeout: TimeInterval = 30
        /// The `Retry-After` of every 503, in seconds (at least 0). Default 1.
        public var retryAfter: Int = 1

        public init() {}
    }
}
