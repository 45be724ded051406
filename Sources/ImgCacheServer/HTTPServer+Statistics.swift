extension HTTPServer {
    /// Where a server is in its life.
    public enum State: Sendable, Hashable {
        /// Accepting connections and answering requests.
        case running
        /// `shutdown(drainSeconds:)` was called: new connections are refused, requests in flight
        /// (and new ones on connections already open, answered with `Connection: close`) are
        /// still answered until the drain ends.
        case draining
        /// Every connection is closed and the port released.
        case stopped
    }

    /// What the server holds now, and counts since it started, for `/metrics` and tests.
    public struct Statistics: Sendable, Hashable {
        /// Connections accepted since the start, whether or not they sent a request.
        public var connectionsAccepted = 0
        /// Connections open now.
        public var openConnections = 0
        /// Requests whose headers are in and whose response is not yet sent (waiting, running or
        /// being written).
        public var requestsInFlight = 0
        /// Handlers holding one of the `maxInFlight` slots (one that timed out holds it until it
        /// returns).
        public var handlersRunning = 0
        /// Requests waiting for a slot.
        public var requestsQueued = 0
        /// Requests answered 503 because every slot and every place in the queue was taken.
        public var refusedRequests = 0
        /// Requests answered 503 because they waited `requestTimeout` for a slot.
        public var queueTimeouts = 0
        /// Requests answered 504 because their handler ran past `requestTimeout`.
        public var handlerTimeouts = 0
        /// Requests completed while the server was draining.
        public var requestsDrained = 0
    }

    /// What a shutdown did.
    public struct ShutdownSummary: Sendable, Hashable {
        /// Requests in flight when it started.
        public var requestsInFlight: Int
        /// Requests completed during the drain (those in flight, and new ones on connections
        /// already open).
        public var requestsDrained: Int
        /// Requests still waiting for their response when the drain time ran out, answered 503.
        public var requestsCutOff: Int
    }
}
