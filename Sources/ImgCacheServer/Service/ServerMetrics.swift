import Foundation
import ImgCache
import Synchronization

/// What the server itself did, beside the pipeline's metrics: responses by status and their
/// latency; connections, requests in flight and queued from the HTTP server's statistics.
final class ServerMetrics: Sendable {
    private let statuses = Mutex<[Int: Int]>([:])
    private let latency = MetricsHistogram()

    /// Counts a response with `status` that took `seconds` from the request's arrival.
    func record(status: Int, seconds: Double) {
        statuses.withLock { $0[status, default: 0] += 1 }
        latency.observe(seconds: seconds)
    }

    /// The server's families in Prometheus text (names `imgcache_http_*`).
    func prometheusText(statistics: HTTPServer.Statistics) -> String {
        var text = PrometheusText()
        text.family("imgcache_http_responses_total", type: .counter, help: "HTTP responses sent, by status code.")
        for (status, count) in statuses.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            text.sample("imgcache_http_responses_total", labels: [("code", String(status))], value: count)
        }
        text.family("imgcache_http_requests_in_flight", type: .gauge, help: "Requests being answered (handlers running).")
        text.sample("imgcache_http_requests_in_flight", value: statistics.handlersRunning)
        text.family("imgcache_http_requests_queued", type: .gauge, help: "Requests waiting for a handler.")
        text.sample("imgcache_http_requests_queued", value: statistics.requestsQueued)
        text.family("imgcache_http_connections_open", type: .gauge, help: "Client connections open.")
        text.sample("imgcache_http_connections_open", value: statistics.openConnections)
        text.family(
            "imgcache_http_refused_requests_total", type: .counter, help: "Requests refused with 503 because the queue was full.")
        text.sample("imgcache_http_refused_requests_total", value: statistics.refusedRequests)
        text.family(
            "imgcache_http_request_duration_seconds", type: .histogram,
            help: "Seconds from a request's arrival to its response, queue wait included.")
        text.histogram("imgcache_http_request_duration_seconds", latency.snapshot())
        return text.text
    }
}
