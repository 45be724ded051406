import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// What `imgcache serve` tells operators, through the real executable: /health (with a Redis
/// tier that goes down and comes back), /metrics (its format, and counts equal to what was
/// asked and to the origin's log), and the access log.
final class ServeObservabilityTests: XCTestCase {
    var nginx: NginxServer!
    var serve: ServeProcess?
    var folder: URL!
    let client = ServeClient()

    override func setUp() async throws {
        nginx = try NginxServer()
        folder = try ServerProcess.temporaryFolder("imgcache-serve-observability")
        for index in 0..<3 {
            try TestImage.jpeg(width: 160, height: 120, seed: UInt8(index * 80)).write(to: nginx.root.appendingPathComponent("p\(index).jpg"))
        }
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func paths(_ names: [String], width: Int = 64) throws -> [String] {
        try ServeURLs.paths(names.map { ServeURLs.Case(nginx.url("/" + $0), type: "fit", width: width, height: width) })
    }

    func testHealthIs503WhileRedisIsDownAnd200Otherwise() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let serve = try ServeProcess(["--redis", redis.url])
        self.serve = serve
        let (okData, ok) = try await client.send(serve.url("/health"))
        XCTAssertEqual(ok.statusCode, 200)
        XCTAssertEqual(String(decoding: okData, as: UTF8.self), "ok\n")
        XCTAssertEqual(ok.header("Cache-Control"), "no-store")

        redis.stop()
        let down = try await client.send(serve.url("/health"))
        ServeAssert.error(down, 503, "Redis down")
        XCTAssertTrue(String(decoding: down.0, as: UTF8.self).lowercased().contains("redis"), "names Redis: \(String(decoding: down.0, as: UTF8.self))")
        // Images are still served from the origin while Redis is down.
        _ = try await client.body(serve.url(try paths(["p0.jpg"])[0]))

        try redis.start()
        try await waitUntil("/health is 200 once Redis is back") { try await client.send(serve.url("/health")).1.statusCode == 200 }
    }

    /// The text keeps the exposition format (parse_metrics.py's checks, then prometheus_client):
    /// every sample under a # TYPE of its family.
    func testMetricsIsPrometheusText() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        _ = try await client.body(serve.url(try paths(["p0.jpg"])[0]))
        let families: [PrometheusParser.Family]
        do {
            families = try await ServeMetrics.families(of: serve, client: client)
        } catch {
            // The checker's faults, without the whole text after them.
            return XCTFail(String(describing: error).components(separatedBy: "The text:")[0]
                .split(separator: "\n").joined(separator: " | "))
        }
        let types = Dictionary(families.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(types["imgcache_http_responses"], "counter")
        XCTAssertEqual(types["imgcache_http_refused_requests"], "counter")
        XCTAssertEqual(types["imgcache_http_connections_open"], "gauge")
        XCTAssertEqual(types["imgcache_http_request_duration_seconds"], "histogram")
        XCTAssertEqual(types["imgcache_requests"], "counter")
        XCTAssertEqual(types["imgcache_origin_requests"], "counter")
    }

    /// Counts after a known set of requests: responses by code, image requests by outcome, the
    /// 404's error kind, the latency histogram's count, and origin requests equal to the lines
    /// of nginx's log.
    func testMetricsCountWhatWasRequested() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let images = try paths(["p0.jpg", "p1.jpg", "p2.jpg", "missing.jpg"])
        for path in images.prefix(3) + [images[0]] { _ = try await client.body(serve.url(path)) }
        ServeAssert.error(try await client.send(serve.url(images[3])), 404, "missing")
        ServeAssert.error(try await client.send(serve.url(try ServeURLs.path(.init(nginx.url("/p0.jpg"), advanced: ["sh:2"])))), 400)
        let forged = "/" + String(repeating: "A", count: 43) + String(images[0].dropFirst().drop { $0 != "/" })
        ServeAssert.error(try await client.send(serve.url(forged)), 403)
        _ = try await client.body(serve.url("/health"))

        let samples = try await ServeMetrics.samples(of: serve, client: client)
        let responses = samples.filter { $0.name == "imgcache_http_responses_total" }
        XCTAssertEqual(Dictionary(responses.map { ($0.labels["code"] ?? "", $0.value) }, uniquingKeysWith: +),
                       ["200": 5, "400": 1, "403": 1, "404": 1], "four images and /health, and three errors")
        XCTAssertEqual(ServeMetrics.value("imgcache_http_request_duration_seconds_count", in: samples), 8)
        let outcomes = samples.filter { $0.name == "imgcache_requests_total" }
        XCTAssertEqual(ServeMetrics.value("imgcache_requests_total", ["outcome": "network"], in: samples), 3)
        XCTAssertEqual(outcomes.map(\.value).reduce(0, +), 4, "\(outcomes)")
        XCTAssertEqual(ServeMetrics.value("imgcache_request_errors_total", ["kind": "http_status"], in: samples), 1)
        let log = try nginx.accessLog(count: 4)
        XCTAssertEqual(log.count, 4)
        XCTAssertEqual(ServeMetrics.value("imgcache_origin_requests_total", in: samples), Double(log.count), "nginx's log: \(log.map(\.path))")
        let downloaded = try XCTUnwrap(ServeMetrics.value("imgcache_downloaded_bytes_total", in: samples))
        let imageBytes = log.filter { $0.status == 200 }.map(\.bodyBytes).reduce(0, +)
        XCTAssertGreaterThanOrEqual(downloaded, Double(imageBytes))
        XCTAssertLessThanOrEqual(downloaded, Double(log.map(\.bodyBytes).reduce(0, +)))
    }

    /// `--access-log FILE`: a JSON line per request, in order, with the time, the method, the
    /// path without its signature, the status, the bytes of the body sent, the milliseconds and
    /// the cache outcome of an image; the signatures appear nowhere.
    func testTheAccessLogHasAJSONLinePerRequest() async throws {
        let file = folder.appendingPathComponent("access.log")
        let serve = try ServeProcess(["--access-log", file.path])
        self.serve = serve
        let paths = try self.paths(["p0.jpg", "missing.jpg"])
        let image = paths[0], missing = paths[1]
        var forged = Array(image.utf8)
        forged[5] = forged[5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let start = Date()
        let first = try await client.body(serve.url(image))
        let second = try await client.body(serve.url(image))
        XCTAssertEqual(first, second)
        let (_, head) = try await client.send(serve.url(image), method: "HEAD")
        let tag = try XCTUnwrap(head.header("ETag"))
        let (_, notModified) = try await client.send(serve.url(image), headers: ["If-None-Match": tag])
        XCTAssertEqual(notModified.statusCode, 304)
        _ = try await client.send(serve.url(String(decoding: forged, as: UTF8.self)))
        _ = try await client.send(serve.url(missing))
        _ = try await client.send(serve.url("/health"))
        // A target may hold quotes and backslashes (visible ASCII): sent as they are, logged as JSON.
        let odd = "/odd\"quote\\back"
        let sent = try ProductRunner.runTool("python3", [
            "-c", "import http.client, sys; c = http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]), timeout=10); "
                + "c.request('GET', sys.argv[2]); print(c.getresponse().status)", String(serve.port), odd,
        ])
        XCTAssertEqual(sent.status, 0, sent.errors)
        let elapsedMilliseconds = Date().timeIntervalSince(start) * 1000

        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = try text.split(separator: "\n").map { try CommandRunner.json(String($0)) }
        XCTAssertEqual(lines.count, 8, text)
        guard lines.count == 8 else { return }
        XCTAssertEqual(lines[7]["path"] as? String, odd, text)
        XCTAssertEqual(lines[7]["status"] as? Int, Int(sent.output.trimmingCharacters(in: .whitespacesAndNewlines)), text)
        func unsigned(_ path: String) -> String { String(path.dropFirst().drop { $0 != "/" }) }
        let expected: [(method: String, path: String, status: Int, bytes: Int)] = [
            ("GET", unsigned(image), 200, first.count), ("GET", unsigned(image), 200, first.count), ("HEAD", unsigned(image), 200, 0),
            ("GET", unsigned(image), 304, 0), ("GET", unsigned(image), 403, -1), ("GET", unsigned(missing), 404, -1),
            ("GET", "/health", 200, 3),
        ]
        for (index, (line, want)) in zip(lines, expected).enumerated() {
            XCTAssertEqual(line["method"] as? String, want.method, "line \(index)")
            XCTAssertEqual(line["path"] as? String, want.path, "line \(index)")
            XCTAssertEqual(line["status"] as? Int, want.status, "line \(index)")
            let bytes = try XCTUnwrap(line["bytes"] as? Int, "line \(index)")
            if want.bytes >= 0 { XCTAssertEqual(bytes, want.bytes, "line \(index)") } else { XCTAssertGreaterThan(bytes, 0, "line \(index)") }
            let milliseconds = try XCTUnwrap(line["ms"] as? Double, "line \(index)")
            // Milliseconds: no request took longer than all of them did, seen from here.
            XCTAssertTrue(milliseconds >= 0 && milliseconds <= elapsedMilliseconds, "line \(index): \(milliseconds) ms")
            let time = try XCTUnwrap(line["time"] as? String, "line \(index)")
            XCTAssertNotNil(try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time), "line \(index): \(time)")
        }
        let outcomes = lines.map { $0["cache"] as? String }
        XCTAssertEqual(outcomes[0], "network")
        for index in 1...3 { XCTAssertTrue(["memory", "disk"].contains(outcomes[index]), "line \(index): \(outcomes[index] ?? "none")") }
        XCTAssertEqual(outcomes[4...], [nil, nil, nil, nil], "no cache outcome without an image")
        for path in paths {
            XCTAssertFalse(text.contains(path.split(separator: "/")[0]), "a signature is in the log")
        }
        XCTAssertFalse(text.contains(String(String(decoding: forged, as: UTF8.self).split(separator: "/")[0])), "the forged signature is in the log")
    }
}
