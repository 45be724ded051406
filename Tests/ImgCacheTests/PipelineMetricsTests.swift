import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImgCache

/// PipelineMetrics: counts and histograms recorded, read back exactly from the snapshot and from
/// the Prometheus text as Python's prometheus_client parses it (Tests/Scripts/parse_metrics.py,
/// which also checks the text line by line against the exposition format).
final class PipelineMetricsTests: XCTestCase {
    /// Every histogram's bucket bounds, and their `le` labels as the text must write them.
    private static let buckets: [(bound: Double, label: String)] = [
        (0.001, "0.001"), (0.0025, "0.0025"), (0.005, "0.005"), (0.01, "0.01"), (0.025, "0.025"), (0.05, "0.05"),
        (0.1, "0.1"), (0.25, "0.25"), (0.5, "0.5"), (1, "1"), (2.5, "2.5"), (5, "5"), (10, "10"), (.infinity, "+Inf"),
    ]
    private static let outcomes: [CacheOutcome] = [.memory, .disk, .shared, .network, .revalidated]
    private static let errorKinds = [
        "unsupported_format", "corrupt_image", "dimensions_over_limit", "invalid_url", "http_status", "too_large",
        "timeout", "network", "refused_url", "unknown_device", "widget_size_unknown", "invalid_argument",
        "encoding_failed", "io", "cache_index", "not_cached", "output_over_byte_limit", "over_timeline_budget", "shut_down",
        "cancelled", "other",
    ]

    private struct OtherError: Error {}

    private typealias Sample = PrometheusParser.Sample
    private typealias Family = PrometheusParser.Family

    /// What a test recorded, to compare the snapshot and the text with.
    private struct Recorded {
        var requests: [CacheOutcome: Int] = [:]
        var errors: [String: Int] = [:]
        var inFlight = 0
        var originRequests = 0
        var downloadedBytes = 0
        var redis: RedisTierCounters?
        var stages: [PipelineMetrics.Stage: [Double]] = [:]
        var requestDurations: [Double] = []

        var snapshot: PipelineMetrics.Snapshot {
            PipelineMetrics.Snapshot(
                requests: Dictionary(uniqueKeysWithValues: PipelineMetricsTests.outcomes.map { ($0, requests[$0] ?? 0) }),
                errors: Dictionary(uniqueKeysWithValues: PipelineMetricsTests.errorKinds.map { ($0, errors[$0] ?? 0) }),
                originRequests: originRequests, downloadedBytes: downloadedBytes, inFlight: inFlight, redis: redis,
                stages: Dictionary(uniqueKeysWithValues: PipelineMetrics.Stage.allCases.map {
                    ($0, PipelineMetricsTests.histogram(stages[$0] ?? []))
                }),
                requestDurations: PipelineMetricsTests.histogram(requestDurations))
        }

        /// Every sample the text must hold, with its value.
        var samples: Set<Sample> {
            var samples: Set<Sample> = []
            for outcome in PipelineMetricsTests.outcomes {
                samples.insert(Sample(name: "imgcache_requests_total", labels: ["outcome": outcome.rawValue], value: Double(requests[outcome] ?? 0)))
            }
            for kind in PipelineMetricsTests.errorKinds {
                samples.insert(Sample(name: "imgcache_request_errors_total", labels: ["kind": kind], value: Double(errors[kind] ?? 0)))
            }
            samples.insert(Sample(name: "imgcache_requests_in_flight", labels: [:], value: Double(inFlight)))
            samples.insert(Sample(name: "imgcache_origin_requests_total", labels: [:], value: Double(originRequests)))
            samples.insert(Sample(name: "imgcache_downloaded_bytes_total", labels: [:], value: Double(downloadedBytes)))
            if let redis {
                for (result, count) in [
                    ("hit", redis.hits), ("miss", redis.misses), ("rejected", redis.rejected), ("store", redis.stores),
                    ("error", redis.errors), ("lease_unavailable", redis.leasesUnavailable),
                ] {
                    samples.insert(Sample(name: "imgcache_redis_operations_total", labels: ["result": result], value: Double(count)))
                }
            }
            let histograms: [(String, [String: String], [Double])] = [
                ("imgcache_queue_wait_seconds", ["queue": "download"], stages[.downloadQueue] ?? []),
                ("imgcache_queue_wait_seconds", ["queue": "decode"], stages[.decodeQueue] ?? []),
                ("imgcache_download_seconds", [:], stages[.download] ?? []),
                ("imgcache_decode_seconds", [:], stages[.decode] ?? []),
                ("imgcache_encode_seconds", [:], stages[.encode] ?? []),
                ("imgcache_request_duration_seconds", [:], requestDurations),
            ]
            for (name, labels, observations) in histograms {
                for bucket in PipelineMetricsTests.buckets {
                    samples.insert(Sample(
                        name: name + "_bucket", labels: labels.merging(["le": bucket.label]) { $1 },
                        value: Double(observations.filter { $0 <= bucket.bound }.count)))
                }
                samples.insert(Sample(name: name + "_sum", labels: labels, value: observations.reduce(0, +)))
                samples.insert(Sample(name: name + "_count", labels: labels, value: Double(observations.count)))
            }
            return samples
        }
    }

    /// The histogram of `observations`, added up in their order.
    private static func histogram(_ observations: [Double]) -> PipelineMetrics.HistogramSnapshot {
        PipelineMetrics.HistogramSnapshot(
            count: observations.count, sum: observations.reduce(0, +),
            buckets: buckets.map { bucket in
                .init(upperBound: bucket.bound, cumulativeCount: observations.filter { $0 <= bucket.bound }.count)
            })
    }

    /// Parses `text` and checks its families (names, types, a help each) and that its samples are
    /// exactly `recorded.samples`.
    private func assertText(_ text: String, holds recorded: Recorded, file: StaticString = #filePath, line: UInt = #line) throws {
        let families = try PrometheusParser.families(text)
        var expectedFamilies = [
            ("imgcache_requests", "counter"), ("imgcache_request_errors", "counter"), ("imgcache_requests_in_flight", "gauge"),
            ("imgcache_origin_requests", "counter"), ("imgcache_downloaded_bytes", "counter"),
        ]
        if recorded.redis != nil { expectedFamilies.append(("imgcache_redis_operations", "counter")) }
        for name in ["queue_wait", "download", "decode", "encode", "request_duration"] {
            expectedFamilies.append(("imgcache_\(name)_seconds", "histogram"))
        }
        XCTAssertEqual(families.map(\.name), expectedFamilies.map(\.0), file: file, line: line)
        XCTAssertEqual(families.map(\.type), expectedFamilies.map(\.1), file: file, line: line)
        for family in families {
            XCTAssertFalse(family.help.isEmpty, "\(family.name) has no help", file: file, line: line)
        }
        let samples = families.flatMap(\.samples)
        XCTAssertEqual(samples.count, Set(samples).count, "a sample written twice", file: file, line: line)
        let expected = recorded.samples
        XCTAssertEqual(Set(samples).subtracting(expected).map(\.description).sorted(), [], "unexpected samples", file: file, line: line)
        XCTAssertEqual(expected.subtracting(samples).map(\.description).sorted(), [], "missing samples", file: file, line: line)
    }

    func testANewInstanceShowsEverySeriesAtZeroAndNoRedisWithoutAClosure() throws {
        let metrics = PipelineMetrics()
        let snapshot = metrics.snapshot()
        XCTAssertEqual(snapshot, Recorded().snapshot)
        XCTAssertEqual(snapshot.requests.count, 5)
        XCTAssertEqual(snapshot.errors.count, 21)
        XCTAssertEqual(snapshot.stages[.encode]?.buckets.map(\.cumulativeCount), [Int](repeating: 0, count: 14))
        XCTAssertNil(snapshot.redis)
        try assertText(metrics.prometheusText(), holds: Recorded())
    }

    func testRecordedValuesReachTheSnapshotAndTheTextExactly() throws {
        let redis = RedisTierCounters(hits: 4, misses: 2, stores: 1, errors: 3)
        let metrics = PipelineMetrics(redisCounters: { redis })
        var recorded = Recorded()
        recorded.redis = redis
        // On the bounds (inclusive), between them, under the first and over the last.
        let finished: [(CacheOutcome, Double)] = [
            (.memory, 0.0004), (.memory, 0.001), (.disk, 0.003), (.shared, 0.025), (.network, 0.3), (.network, 12),
            (.revalidated, 1),
        ]
        let failed: [(any Error, String, Double)] = [
            (ImgCacheError.timeout(url: "https://example.com/a.jpg", seconds: 5), "timeout", 5),
            (ImgCacheError.httpStatus(code: 404, url: "https://example.com/b.jpg"), "http_status", 0.07),
            (CancellationError(), "cancelled", 0.0025),
        ]
        for _ in 0..<(finished.count + failed.count + 2) { metrics.requestStarted() }
        recorded.inFlight = 2
        for (outcome, seconds) in finished {
            metrics.requestFinished(outcome: outcome, seconds: seconds)
            recorded.requests[outcome, default: 0] += 1
            recorded.requestDurations.append(seconds)
        }
        for (error, kind, seconds) in failed {
            metrics.requestFailed(error, seconds: seconds)
            recorded.errors[kind, default: 0] += 1
            recorded.requestDurations.append(seconds)
        }
        for _ in 0..<3 { metrics.originRequestSent() }
        recorded.originRequests = 3
        for bytes in [1_000, 0, 2_345_678] { metrics.downloaded(bytes: bytes) }
        recorded.downloadedBytes = 2_346_678
        let stages: [(PipelineMetrics.Stage, Double)] = [
            (.downloadQueue, 0.002), (.downloadQueue, 0.6), (.decodeQueue, 0.05), (.download, 0.3), (.download, 0.7),
            (.decode, 0.01), (.decode, 0.0125), (.encode, 0.0025), (.encode, 2.5), (.encode, 11),
        ]
        for (stage, seconds) in stages {
            metrics.observe(stage, seconds: seconds)
            recorded.stages[stage, default: []].append(seconds)
        }

        let snapshot = metrics.snapshot()
        XCTAssertEqual(snapshot, recorded.snapshot)
        XCTAssertEqual(snapshot.requests[.memory], 2)
        XCTAssertEqual(snapshot.errors["timeout"], 1)
        XCTAssertEqual(snapshot.requestDurations.count, 10)
        XCTAssertEqual(snapshot.stages[.encode]?.buckets.map(\.cumulativeCount), [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3])
        try assertText(metrics.prometheusText(), holds: recorded)
    }

    func testANegativeOrNaNDurationCountsAsZeroAndANegativeByteCountIsIgnored() {
        let metrics = PipelineMetrics()
        metrics.observe(.decode, seconds: -0.5)
        metrics.observe(.decode, seconds: .nan)
        metrics.downloaded(bytes: -10)
        let snapshot = metrics.snapshot()
        XCTAssertEqual(snapshot.stages[.decode], Self.histogram([0, 0]))
        XCTAssertEqual(snapshot.downloadedBytes, 0)
    }

    func testEveryErrorHasItsKind() {
        let cases: [(any Error, String)] = [
            (ImgCacheError.unsupportedFormat(detail: "x"), "unsupported_format"),
            (ImgCacheError.corruptImage(format: .png, detail: "x"), "corrupt_image"),
            (ImgCacheError.dimensionsOverLimit(width: 1, height: 1, limit: 0), "dimensions_over_limit"),
            (ImgCacheError.invalidURL("x"), "invalid_url"),
            (ImgCacheError.httpStatus(code: 500, url: "x"), "http_status"),
            (ImgCacheError.tooLarge(bytes: 2, limit: 1), "too_large"),
            (ImgCacheError.timeout(url: "x", seconds: 1), "timeout"),
            (ImgCacheError.network(url: "x", detail: "x"), "network"),
            (ImgCacheError.refusedURL(url: "x", reason: "x"), "refused_url"),
            (ImgCacheError.unknownDevice(name: "x", suggestions: []), "unknown_device"),
            (ImgCacheError.widgetSizeUnknown(device: "x", family: "x"), "widget_size_unknown"),
            (ImgCacheError.invalidArgument("x"), "invalid_argument"),
            (ImgCacheError.encodingFailed(format: .jpeg, detail: "x"), "encoding_failed"),
            (ImgCacheError.io(path: "x", detail: "x"), "io"),
            (ImgCacheError.cacheIndex(path: "x", detail: "x"), "cache_index"),
            (ImgCacheError.notCached(key: "x"), "not_cached"),
            (ImgCacheError.outputOverByteLimit(format: .webp, bytes: 2, limit: 1), "output_over_byte_limit"),
            (ImgCacheError.overTimelineBudget(width: 2, height: 2, bytesPerEntry: 1, entries: 1), "over_timeline_budget"),
            (ImgCacheError.shutDown, "shut_down"),
            (CancellationError(), "cancelled"),
            (OtherError(), "other"),
        ]
        XCTAssertEqual(cases.map(\.1), Self.errorKinds)
        for (error, kind) in cases {
            let metrics = PipelineMetrics()
            metrics.requestStarted()
            metrics.requestFailed(error, seconds: 0.01)
            let errors = metrics.snapshot().errors
            XCTAssertEqual(errors.filter { $0.value != 0 }, [kind: 1], "\(error)")
            XCTAssertEqual(errors.keys.sorted(), Self.errorKinds.sorted())
        }
    }

    func testConcurrentRecordingFromManyThreadsKeepsExactTotals() throws {
        let metrics = PipelineMetrics()
        let threads = 10, rounds = 1_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                metrics.requestStarted()
                metrics.requestStarted()
                metrics.originRequestSent()
                metrics.downloaded(bytes: 3)
                metrics.observe(.downloadQueue, seconds: 0.0001)
                metrics.observe(.decode, seconds: 0.03125)
                metrics.requestFinished(outcome: Self.outcomes[thread % Self.outcomes.count], seconds: 0.5)
                metrics.requestFailed(round.isMultiple(of: 2) ? ImgCacheError.timeout(url: "x", seconds: 1) : CancellationError(), seconds: 2)
            }
        }
        // Every duration is a power of 2 or a sum of them, so the sums are exact in any order.
        var recorded = Recorded()
        for outcome in Self.outcomes { recorded.requests[outcome] = 2 * rounds }
        recorded.errors = ["timeout": threads * rounds / 2, "cancelled": threads * rounds / 2]
        recorded.originRequests = threads * rounds
        recorded.downloadedBytes = 3 * threads * rounds
        recorded.stages[.downloadQueue] = [Double](repeating: 0.0001, count: threads * rounds)
        recorded.stages[.decode] = [Double](repeating: 0.03125, count: threads * rounds)
        recorded.requestDurations = [Double](repeating: 0.5, count: threads * rounds) + [Double](repeating: 2, count: threads * rounds)
        let snapshot = metrics.snapshot()
        XCTAssertEqual(snapshot.inFlight, 0)
        XCTAssertEqual(snapshot.requests, recorded.snapshot.requests)
        XCTAssertEqual(snapshot.errors, recorded.snapshot.errors)
        XCTAssertEqual(snapshot.originRequests, 10_000)
        XCTAssertEqual(snapshot.downloadedBytes, 30_000)
        XCTAssertEqual(snapshot.stages[.decode], recorded.snapshot.stages[.decode])
        XCTAssertEqual(snapshot.stages[.decode]?.sum, 312.5)
        XCTAssertEqual(snapshot.requestDurations, recorded.snapshot.requestDurations)
        XCTAssertEqual(snapshot.requestDurations.sum, 25_000)
        XCTAssertEqual(snapshot.stages[.downloadQueue]?.count, 10_000)
        XCTAssertEqual(snapshot.stages[.downloadQueue]?.buckets.first?.cumulativeCount, 10_000)
        try assertText(metrics.prometheusText(), holds: recorded)
    }

    func testTheRedisCountersAreReadAtEachSnapshotAndOmittedWhenNil() throws {
        let reads = Counter()
        let metrics = PipelineMetrics(redisCounters: {
            let read = reads.next()
            return read.isMultiple(of: 2) ? RedisTierCounters(hits: read) : nil
        })
        XCTAssertNil(metrics.snapshot().redis)
        XCTAssertEqual(metrics.snapshot().redis, RedisTierCounters(hits: 2))
        let withoutRedis = metrics.prometheusText()
        XCTAssertFalse(withoutRedis.contains("redis"))
        try assertText(withoutRedis, holds: Recorded())
        var recorded = Recorded()
        recorded.redis = RedisTierCounters(hits: 4)
        try assertText(metrics.prometheusText(), holds: recorded)
    }

    func testHelpAndLabelValuesAreEscapedAndNumbersReadBackExactly() throws {
        var text = PrometheusText()
        let help = "Back\\slash, \"quotes\" and\na line feed"
        let path = "C:\\dir \"quoted\"\r\nnext\\n"
        text.family("imgcache_test_total", type: .counter, help: help)
        text.sample("imgcache_test_total", labels: [("path", path), ("empty", "")], value: 7)
        let numbers: [Double] = [0, 1, 10, 2.5, 0.005, 0.0025, 1e-05, 0.1 + 0.2, 123_456_789.125, 1e20, -3.75]
        text.family("imgcache_test_value", type: .gauge, help: "Values.")
        for (index, number) in numbers.enumerated() {
            text.sample("imgcache_test_value", labels: [("index", String(index))], value: number)
        }
        XCTAssertTrue(text.text.hasPrefix(#"""
            # HELP imgcache_test_total Back\\slash, "quotes" and\na line feed
            # TYPE imgcache_test_total counter
            imgcache_test_total{path="C:\\dir \"quoted\"\#r\nnext\\n",empty=""} 7

            """#), text.text)
        let families = try PrometheusParser.families(text.text)
        XCTAssertEqual(families.first?.help, help)
        XCTAssertEqual(families.first?.samples, [Sample(name: "imgcache_test_total", labels: ["path": path, "empty": ""], value: 7)])
        XCTAssertEqual(families.last?.samples.map(\.value), numbers)
        XCTAssertEqual(
            [0, 1, 10, 2.5, 0.005, 1e-05, .infinity, -.infinity, .nan].map(PrometheusText.number),
            ["0", "1", "10", "2.5", "0.005", "1e-05", "+Inf", "-Inf", "NaN"])
    }

    /// Counts its calls.
    private final class Counter: Sendable {
        private let count = Mutex(0)

        /// 1 at the first call, then 2, 3...
        func next() -> Int {
            count.withLock { count in
                count += 1
                return count
            }
        }
    }
}
