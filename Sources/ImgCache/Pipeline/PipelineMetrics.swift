import Synchronization

/// What an image pipeline did since it was made: requests by outcome and by error kind, requests
/// in flight, HTTP requests to origins and bytes downloaded, the shared Redis tier's counters, and
/// duration histograms of each stage and of whole requests. Read it as a `Snapshot`, or as
/// Prometheus text for a `/metrics` endpoint.
///
/// The pipeline records into it from many threads at once: a record takes at most two short
/// locks and an atomic add, and allocates nothing. The counters start at 0 and only grow; the
/// in-flight gauge goes up and down.
public final class PipelineMetrics: Sendable {
    /// A part of a request whose duration is measured.
    public enum Stage: String, CaseIterable, Sendable {
        /// Waiting for a download slot (the pipeline runs at most `maxConcurrentLoads` at once).
        case downloadQueue
        /// Waiting for a decode slot (at most `maxConcurrentDecodes` at once, within the decoding
        /// memory budget).
        case decodeQueue
        /// Fetching an original from its origin, from the first HTTP request to the last byte,
        /// retries included.
        case download
        /// Decoding an image (an original, or a stored variant) and resampling it.
        case decode
        /// Encoding a variant.
        case encode
    }

    /// The metrics at one moment. Each counter, and each histogram, is read at once; the set is not
    /// (a request that finishes while a snapshot is taken may be in one counter and not yet in
    /// another).
    public struct Snapshot: Sendable, Equatable {
        /// Requests that returned an image, by where it came from. Every outcome is present, 0
        /// when none. Failed requests are in `errors`.
        public let requests: [CacheOutcome: Int]
        /// Requests that failed, by kind: the `ImgCacheError` case in snake_case (`http_status`,
        /// `timeout`, `corrupt_image`...), `cancelled` for `CancellationError`, `other` for any
        /// other error. Every kind is present, 0 when none.
        public let errors: [String: Int]
        /// HTTP requests sent to origins: one per attempt, so retries and revalidations count.
        public let originRequests: Int
        /// Bytes of response bodies received from origins.
        public let downloadedBytes: Int
        /// Requests started and not yet finished or failed.
        public let inFlight: Int
        /// The shared Redis tier's counters for this pipeline, from the closure given to the
        /// metrics; nil without a closure, or when it returned nil.
        public let redis: RedisTierCounters?
        /// Seconds spent in each stage, one observation per time a request went through it. Every
        /// stage is present.
        public let stages: [Stage: HistogramSnapshot]
        /// Seconds from a request's start to its image or its error, for every finished or failed
        /// request.
        public let requestDurations: HistogramSnapshot
    }

    /// A histogram of durations in seconds, in fixed buckets with these upper bounds: 1, 2.5, 5,
    /// 10, 25, 50, 100, 250 and 500 ms, 1, 2.5, 5 and 10 s, and +Inf.
    public struct HistogramSnapshot: Sendable, Equatable {
        /// The observations at or under an upper bound.
        public struct Bucket: Sendable, Equatable {
            /// Inclusive upper bound in seconds; `.infinity` for the last bucket.
            public let upperBound: Double
            /// Observations at or under `upperBound`, and so those of every bucket before too.
            public let cumulativeCount: Int
        }

        /// Durations observed.
        public let count: Int
        /// Seconds of every observation added up.
        public let sum: Double
        /// The buckets by increasing upper bound; the last (+Inf) counts every observation.
        public let buckets: [Bucket]
    }

    /// Why a request failed. Its raw value is its slot in `Counts.errors`; its label is the
    /// `kind` label of the error counter and the key of `Snapshot.errors`.
    enum ErrorKind: Int, CaseIterable {
        case unsupportedFormat, corruptImage, dimensionsOverLimit, invalidURL, httpStatus, tooLarge, timeout, network
        case refusedURL, unknownDevice, widgetSizeUnknown, invalidArgument, encodingFailed, io, cacheIndex, notCached
        case outputOverByteLimit, overTimelineBudget, shutDown, cancelled, other

        /// The kind of `error`. The switch lists every `ImgCacheError` case, so that a new case
        /// does not compile until it has a kind.
        init(of error: any Error) {
            switch error as? ImgCacheError {
            case .unsupportedFormat: self = .unsupportedFormat
            case .corruptImage: self = .corruptImage
            case .dimensionsOverLimit: self = .dimensionsOverLimit
            case .invalidURL: self = .invalidURL
            case .httpStatus: self = .httpStatus
            case .tooLarge: self = .tooLarge
            case .timeout: self = .timeout
            case .network: self = .network
            case .refusedURL: self = .refusedURL
            case .unknownDevice: self = .unknownDevice
            case .widgetSizeUnknown: self = .widgetSizeUnknown
            case .invalidArgument: self = .invalidArgument
            case .encodingFailed: self = .encodingFailed
            case .io: self = .io
            case .cacheIndex: self = .cacheIndex
            case .notCached: self = .notCached
            case .outputOverByteLimit: self = .outputOverByteLimit
            case .overTimelineBudget: self = .overTimelineBudget
            case .shutDown: self = .shutDown
            case nil: self = error is CancellationError ? .cancelled : .other
            }
        }

        /// The kind in snake_case, stable across releases.
        var label: String {
            switch self {
            case .unsupportedFormat: "unsupported_format"
            case .corruptImage: "corrupt_image"
            case .dimensionsOverLimit: "dimensions_over_limit"
            case .invalidURL: "invalid_url"
            case .httpStatus: "http_status"
            case .tooLarge: "too_large"
            case .timeout: "timeout"
            case .network: "network"
            case .refusedURL: "refused_url"
            case .unknownDevice: "unknown_device"
            case .widgetSizeUnknown: "widget_size_unknown"
            case .invalidArgument: "invalid_argument"
            case .encodingFailed: "encoding_failed"
            case .io: "io"
            case .cacheIndex: "cache_index"
            case .notCached: "not_cached"
            case .outputOverByteLimit: "output_over_byte_limit"
            case .overTimelineBudget: "over_timeline_budget"
            case .shutDown: "shut_down"
            case .cancelled: "cancelled"
            case .other: "other"
            }
        }
    }

    /// A `CacheOutcome` (which is not CaseIterable) as a slot in `Counts.requests`, its raw value.
    /// Both switches list every case, so that a new outcome does not compile until it has a slot.
    private enum Outcome: Int, CaseIterable {
        case memory, disk, shared, network, revalidated

        init(_ outcome: CacheOutcome) {
            switch outcome {
            case .memory: self = .memory
            case .disk: self = .disk
            case .shared: self = .shared
            case .network: self = .network
            case .revalidated: self = .revalidated
            }
        }

        var cacheOutcome: CacheOutcome {
            switch self {
            case .memory: .memory
            case .disk: .disk
            case .shared: .shared
            case .network: .network
            case .revalidated: .revalidated
            }
        }
    }

    /// The counts kept under one lock, each at the slot of its outcome or kind: counting adds in
    /// place, without hashing or allocating.
    private struct Counts {
        var requests = [Int](repeating: 0, count: Outcome.allCases.count)
        var errors = [Int](repeating: 0, count: ErrorKind.allCases.count)
    }

    private let counts = Mutex(Counts())
    private let inFlight = Atomic<Int>(0)
    private let originRequests = Atomic<Int>(0)
    private let downloadedBytes = Atomic<Int>(0)
    private let downloadQueue = MetricsHistogram()
    private let decodeQueue = MetricsHistogram()
    private let download = MetricsHistogram()
    private let decode = MetricsHistogram()
    private let encode = MetricsHistogram()
    private let requestDurations = MetricsHistogram()
    private let redisCounters: (@Sendable () -> RedisTierCounters?)?

    /// Metrics at 0. `redisCounters` (default nil: no Redis tier) is called by each snapshot for
    /// the Redis tier's counters.
    init(redisCounters: (@Sendable () -> RedisTierCounters?)? = nil) {
        self.redisCounters = redisCounters
    }

    // MARK: Recording

    /// A request started: one more in flight.
    func requestStarted() {
        inFlight.wrappingAdd(1, ordering: .relaxed)
    }

    /// A request returned an image from `outcome` after `seconds` (counted in the request
    /// durations): one fewer in flight.
    func requestFinished(outcome: CacheOutcome, seconds: Double) {
        let slot = Outcome(outcome).rawValue
        counts.withLock { $0.requests[slot] += 1 }
        finish(seconds: seconds)
    }

    /// A request failed with `error` after `seconds` (counted in the request durations): one
    /// fewer in flight.
    func requestFailed(_ error: any Error, seconds: Double) {
        let slot = ErrorKind(of: error).rawValue
        counts.withLock { $0.errors[slot] += 1 }
        finish(seconds: seconds)
    }

    private func finish(seconds: Double) {
        inFlight.wrappingSubtract(1, ordering: .relaxed)
        requestDurations.observe(seconds: seconds)
    }

    /// An HTTP request was sent to an origin (call once per attempt).
    func originRequestSent() {
        originRequests.wrappingAdd(1, ordering: .relaxed)
    }

    /// `bytes` of a response body arrived from an origin; a negative count is ignored.
    func downloaded(bytes: Int) {
        guard bytes > 0 else { return }
        downloadedBytes.wrappingAdd(bytes, ordering: .relaxed)
    }

    /// A request spent `seconds` in `stage`.
    func observe(_ stage: Stage, seconds: Double) {
        histogram(of: stage).observe(seconds: seconds)
    }

    private func histogram(of stage: Stage) -> MetricsHistogram {
        switch stage {
        case .downloadQueue: downloadQueue
        case .decodeQueue: decodeQueue
        case .download: download
        case .decode: decode
        case .encode: encode
        }
    }

    // MARK: Reading

    /// The metrics now, with the Redis tier's counters read from the closure given at `init`.
    public func snapshot() -> Snapshot {
        let (requests, errors) = counts.withLock { counts in
            (Dictionary(uniqueKeysWithValues: Outcome.allCases.map { ($0.cacheOutcome, counts.requests[$0.rawValue]) }),
             Dictionary(uniqueKeysWithValues: ErrorKind.allCases.map { ($0.label, counts.errors[$0.rawValue]) }))
        }
        return Snapshot(
            requests: requests, errors: errors, originRequests: originRequests.load(ordering: .relaxed),
            downloadedBytes: downloadedBytes.load(ordering: .relaxed), inFlight: inFlight.load(ordering: .relaxed),
            redis: redisCounters?(),
            stages: [Stage: HistogramSnapshot](uniqueKeysWithValues: Stage.allCases.map { ($0, histogram(of: $0).snapshot()) }),
            requestDurations: requestDurations.snapshot())
    }

    /// A snapshot in the Prometheus text exposition format 0.0.4, for a scrape: serve it with the
    /// content type `text/plain; version=0.0.4`. The families, each with `# HELP` and `# TYPE`:
    ///
    /// - `imgcache_requests_total{outcome}` (counter): requests that returned an image, by
    ///   outcome (`memory`, `disk`, `shared`, `network`, `revalidated`), every outcome from 0.
    /// - `imgcache_request_errors_total{kind}` (counter): failed requests by kind (see
    ///   `Snapshot.errors`), every kind from 0.
    /// - `imgcache_requests_in_flight` (gauge): requests started and not yet finished.
    /// - `imgcache_origin_requests_total` (counter): HTTP requests sent to origins, retries included.
    /// - `imgcache_downloaded_bytes_total` (counter): bytes received from origins.
    /// - `imgcache_redis_operations_total{result}` (counter): the Redis tier's calls by result
    ///   (`hit`, `miss`, `store`, `error`); only when the snapshot has Redis counters.
    /// - Histograms in seconds: `imgcache_queue_wait_seconds{queue}` (`download`, `decode`),
    ///   `imgcache_download_seconds`, `imgcache_decode_seconds`, `imgcache_encode_seconds` and
    ///   `imgcache_request_duration_seconds`, each with its `_bucket{le}`, `_sum` and `_count`.
    public func prometheusText() -> String {
        let snapshot = snapshot()
        var text = PrometheusText()
        text.family("imgcache_requests_total", type: .counter, help: "Image requests that returned an image, by where it came from.")
        for (outcome, count) in snapshot.requests.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            text.sample("imgcache_requests_total", labels: [("outcome", outcome.rawValue)], value: count)
        }
        text.family("imgcache_request_errors_total", type: .counter, help: "Image requests that failed, by kind of error.")
        for (kind, count) in snapshot.errors.sorted(by: { $0.key < $1.key }) {
            text.sample("imgcache_request_errors_total", labels: [("kind", kind)], value: count)
        }
        text.family("imgcache_requests_in_flight", type: .gauge, help: "Image requests started and not yet finished.")
        text.sample("imgcache_requests_in_flight", value: snapshot.inFlight)
        text.family(
            "imgcache_origin_requests_total", type: .counter,
            help: "HTTP requests sent to origin servers, one per attempt (retries and revalidations included).")
        text.sample("imgcache_origin_requests_total", value: snapshot.originRequests)
        text.family("imgcache_downloaded_bytes_total", type: .counter, help: "Bytes of response bodies received from origin servers.")
        text.sample("imgcache_downloaded_bytes_total", value: snapshot.downloadedBytes)
        if let redis = snapshot.redis {
            text.family(
                "imgcache_redis_operations_total", type: .counter,
                help: "Calls to the shared Redis tier by this instance, by result: lookups that hit or missed, values stored, calls that failed.")
            for (result, count) in [
                ("hit", redis.hits), ("miss", redis.misses), ("rejected", redis.rejected), ("store", redis.stores),
                ("error", redis.errors), ("lease_unavailable", redis.leasesUnavailable),
            ] {
                text.sample("imgcache_redis_operations_total", labels: [("result", result)], value: count)
            }
        }
        // Stage.allCases lists the two queues together, so that their family is written once.
        var family: String?
        for (stage, histogram) in Stage.allCases.compactMap({ stage in snapshot.stages[stage].map { (stage, $0) } }) {
            let place = Self.prometheusFamily(of: stage)
            if place.name != family {
                text.family(place.name, type: .histogram, help: place.help)
                family = place.name
            }
            text.histogram(place.name, labels: place.labels, histogram)
        }
        text.family(
            "imgcache_request_duration_seconds", type: .histogram,
            help: "Seconds from the start of an image request to its image or its error.")
        text.histogram("imgcache_request_duration_seconds", snapshot.requestDurations)
        return text.text
    }

    /// The histogram family `stage` is written in, its help, and the labels of `stage` there.
    private static func prometheusFamily(of stage: Stage) -> (name: String, help: String, labels: PrometheusText.Labels) {
        let queueHelp = "Seconds a request waited for a free download or decode slot, by queue."
        return switch stage {
        case .downloadQueue: ("imgcache_queue_wait_seconds", queueHelp, [("queue", "download")])
        case .decodeQueue: ("imgcache_queue_wait_seconds", queueHelp, [("queue", "decode")])
        case .download: ("imgcache_download_seconds", "Seconds fetching an original from its origin, retries included.", [])
        case .decode: ("imgcache_decode_seconds", "Seconds decoding and resampling an image.", [])
        case .encode: ("imgcache_encode_seconds", "Seconds encoding a variant.", [])
        }
    }
}
