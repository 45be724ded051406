import Foundation
import ImgCache
import TestSupport
import XCTest

/// Image tasks (events, progress, cancelling one waiter) and the pipeline's metrics, against
/// Debian's nginx: what the metrics count is what nginx's access log shows.
final class PipelineTaskMetricsTests: XCTestCase {
    private var nginx: NginxServer!
    private var root: URL!

    override func setUp() async throws {
        nginx = try NginxServer()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-tasks-\(UUID().uuidString)")
    }

    override func tearDown() async throws {
        nginx?.stop()
        try? FileManager.default.removeItem(at: root)
    }

    private func pipeline() throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        return try ImagePipeline(configuration: ImagePipeline.Configuration(diskCache: disk))
    }

    private func publish(_ name: String, width: Int = 64, height: Int = 48, seed: UInt8 = 0) throws -> Data {
        let data = try TestImage.jpeg(width: width, height: height, seed: seed)
        try data.write(to: nginx.root.appendingPathComponent(name))
        return data
    }

    func testATaskReportsStartedProgressOutcomeAndFinishedInOrder() async throws {
        let image = try publish("large.jpg", width: 1600, height: 1200)
        let task = try pipeline().task(for: ImageRequest(url: nginx.url("/large.jpg"), target: .pixels(PixelSize(width: 80, height: 80))))
        var events: [ImageTask.Event] = []
        for await event in task.events { events.append(event) }
        guard case .started? = events.first else { return XCTFail("first event: \(String(describing: events.first))") }
        let progress = events.compactMap { event -> ImageTask.Progress? in
            if case .progress(let progress) = event { return progress } else { return nil }
        }
        XCTAssertFalse(progress.isEmpty)
        XCTAssertEqual(progress.map(\.receivedBytes), progress.map(\.receivedBytes).sorted(), "progress only grows")
        XCTAssertEqual(progress.last?.receivedBytes, Int64(image.count))
        XCTAssertEqual(progress.last?.expectedBytes, Int64(image.count))
        XCTAssertEqual(progress.last?.fraction, 1)
        XCTAssertEqual(task.progress, progress.last)
        guard events.count >= 3, case .cacheOutcome(.network) = events[events.count - 2],
              case .finished(let response) = events[events.count - 1] else { return XCTFail("last events: \(events.suffix(2))") }
        XCTAssertEqual(response.pixelSize, PixelSize(width: 80, height: 60))
        let awaited = try await task.response
        XCTAssertEqual(awaited.fileURL, response.fileURL)
    }

    func testCancellingOneTaskOfACoalescedLoadLeavesTheOtherRunning() async throws {
        // The origin holds its answer until the test lets it go, so the cancel comes first however
        // slow the machine.
        let origin = try FaultServer()
        defer { origin.stop() }
        let pipeline = try pipeline()
        let request = ImageRequest(url: origin.url("/hold/shared"), target: .pixels(PixelSize(width: 40, height: 40)))
        let leaving = pipeline.task(for: request), staying = pipeline.task(for: request)
        leaving.cancel()
        do {
            _ = try await leaving.response
            XCTFail("a cancelled task must not get the image")
        } catch is CancellationError {}
        var last: ImageTask.Event?
        for await event in leaving.events { last = event }
        guard case .failed(let error)? = last, error is CancellationError else { return XCTFail("\(String(describing: last))") }
        try await origin.release()
        let response = try await staying.response
        XCTAssertEqual(response.pixelSize, PixelSize(width: 40, height: 30))
        let requests = try await origin.count("/hold/shared")
        XCTAssertEqual(requests, 1)
    }

    func testTheMetricsCountWhatTheOriginsLogShows() async throws {
        var sizes: [String: Int] = [:]
        for index in 0..<6 { sizes["/p\(index).jpg"] = try publish("p\(index).jpg", seed: UInt8(index)).count }
        let pipeline = try pipeline()
        let target = ImageTarget.pixels(PixelSize(width: 32, height: 32))
        let paths = sizes.keys.sorted() + ["/missing-1.jpg", "/missing-2.jpg"]
        let results = await pipeline.prefetch(paths.map { ImageRequest(url: nginx.url($0), target: target) })
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 6)
        // Again: every variant from the disk; a reload revalidates one original (304).
        _ = await pipeline.prefetch(sizes.keys.sorted().map { ImageRequest(url: nginx.url($0), target: target) })
        _ = try await pipeline.image(for: ImageRequest(url: nginx.url("/p0.jpg"), target: target, cachePolicy: .reload))
        let log = try nginx.accessLog(count: 9)
        XCTAssertEqual(log.count, 9, "6 downloads, 2 not found, 1 revalidation")
        XCTAssertEqual(log.filter { $0.status == 304 }.count, 1)

        let families = try PrometheusParser.families(pipeline.metrics.prometheusText())
        func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
            PrometheusParser.value(name, labels: labels, in: families)
        }
        XCTAssertEqual(value("imgcache_origin_requests_total"), Double(log.count))
        XCTAssertEqual(value("imgcache_downloaded_bytes_total"), Double(log.filter { $0.status == 200 }.map(\.bodyBytes).reduce(0, +)))
        XCTAssertEqual(value("imgcache_requests_total", ["outcome": "network"]), 6)
        XCTAssertEqual(value("imgcache_requests_total", ["outcome": "disk"]), 6)
        XCTAssertEqual(value("imgcache_requests_total", ["outcome": "revalidated"]), 1)
        XCTAssertEqual(value("imgcache_request_errors_total", ["kind": "http_status"]), 2)
        XCTAssertEqual(value("imgcache_requests_in_flight"), 0)
        XCTAssertEqual(value("imgcache_request_duration_seconds_count"), 15)
        XCTAssertEqual(value("imgcache_download_seconds_count"), Double(log.count))
        XCTAssertEqual(value("imgcache_queue_wait_seconds_count", ["queue": "download"]), Double(log.count))
        XCTAssertEqual(value("imgcache_decode_seconds_count"), 7, "6 renders, and the reload's")
        let snapshot = pipeline.metrics.snapshot()
        XCTAssertEqual(snapshot.originRequests, log.count)
        XCTAssertEqual(snapshot.requests[.network], 6)
    }

    func testPrefetchWritesItsMetricsFileAtExit() throws {
        for index in 0..<3 { _ = try publish("m\(index).jpg", seed: UInt8(index)) }
        let list = root.appendingPathComponent("urls.txt"), metrics = root.appendingPathComponent("imgcache.prom")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let paths = ["/m0.jpg", "/m1.jpg", "/m2.jpg", "/m0.jpg", "/gone.jpg"]
        try paths.map { nginx.url($0).absoluteString }.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let result = try CommandRunner.run("imgcache", [
            "prefetch", list.path, "--size", "16x16", "--cache-dir", root.appendingPathComponent("cache").path,
            "--metrics", metrics.path,
        ])
        XCTAssertEqual(result.status, 11, result.errors)
        let log = try nginx.accessLog(count: 4)
        XCTAssertEqual(log.count, 4, "three images, one not found; the repeated URL shares its download")
        let families = try PrometheusParser.families(try String(contentsOf: metrics, encoding: .utf8))
        XCTAssertEqual(PrometheusParser.value("imgcache_origin_requests_total", in: families), Double(log.count))
        XCTAssertEqual(PrometheusParser.value("imgcache_requests_total", labels: ["outcome": "network"], in: families), 4)
        XCTAssertEqual(PrometheusParser.value("imgcache_request_errors_total", labels: ["kind": "http_status"], in: families), 1)
        XCTAssertEqual(PrometheusParser.value("imgcache_downloaded_bytes_total", in: families),
                       Double(log.filter { $0.status == 200 }.map(\.bodyBytes).reduce(0, +)))
    }
}
