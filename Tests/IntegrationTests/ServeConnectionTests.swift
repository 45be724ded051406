import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `imgcache serve`'s connections through the real executable: many requests over one
/// kept-alive connection, and a SIGTERM that lets 20 requests in flight finish.
final class ServeConnectionTests: XCTestCase {
    var nginx: NginxServer!
    var faults: FaultServer!
    var serve: ServeProcess?
    let client = ServeClient()

    override func setUp() async throws {
        nginx = try NginxServer()
        faults = try FaultServer()
        try TestImage.jpeg(width: 320, height: 240).write(to: nginx.root.appendingPathComponent("photo.jpg"))
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
        faults?.stop()
    }

    /// 20 image requests then /metrics in one curl run: curl opens one connection (num_connects
    /// 1 for the first transfer, 0 for every later one, from one local port), every answer is a
    /// 200, and the server counts one connection open.
    func testTwentyRequestsGoOverOneKeptAliveConnection() throws {
        let serve = try ServeProcess()
        self.serve = serve
        let cases = (0..<10).map { ServeURLs.Case(nginx.url("/photo.jpg"), type: "fit", width: 40 + $0, height: 40 + $0) }
        let paths = try ServeURLs.paths(cases)
        let folder = try ServerProcess.temporaryFolder("imgcache-serve-keepalive")
        defer { try? FileManager.default.removeItem(at: folder) }
        let metrics = folder.appendingPathComponent("metrics.txt")
        var arguments = ["-s", "--max-time", "30", "-w", "%{num_connects} %{local_port} %{http_code}\\n"]
        for path in paths + paths {
            arguments += ["-o", "/dev/null", serve.url(path).absoluteString]
        }
        arguments += ["-o", metrics.path, serve.url("/metrics").absoluteString]
        let result = try Curl.run(arguments)
        XCTAssertEqual(result.status, 0, result.errors)
        let transfers = result.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(transfers.count, 21)
        XCTAssertEqual(transfers.map { $0.first ?? "" }, ["1"] + Array(repeating: "0", count: 20), "connections opened per transfer")
        XCTAssertEqual(Set(transfers.map { $0.dropFirst().first ?? "" }).count, 1, "one local port: \(transfers)")
        XCTAssertEqual(transfers.map { $0.last ?? "" }, Array(repeating: "200", count: 21))
        let samples = try ServeMetrics.samples(try String(contentsOf: metrics, encoding: .utf8))
        XCTAssertEqual(ServeMetrics.value("imgcache_http_connections_open", in: samples), 1)
        XCTAssertEqual(ServeMetrics.value("imgcache_http_responses_total", ["code": "200"], in: samples), 20)
        XCTAssertEqual(try nginx.accessLog(count: 1).count, 1, "one download for the ten sizes")
    }

    /// SIGTERM with 20 requests in flight (every one waiting for a held origin answer): the
    /// listening socket closes at once, the 20 finish with 200 once the origin answers, the
    /// process exits 0 saying so, and a new connection is refused.
    func testSIGTERMLetsTwentyRequestsInFlightFinishAndExits0() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let cases = (0..<20).map { ServeURLs.Case(faults.url("/hold/drain"), type: "fit", width: 20 + $0, height: 20 + $0) }
        let urls = try ServeURLs.paths(cases).map(serve.url)
        let client = self.client
        let requests = Task {
            try await withThrowingTaskGroup(of: (Int, Data, Int).self) { group in
                for (index, url) in urls.enumerated() {
                    group.addTask {
                        let (data, response) = try await client.send(url)
                        return (index, data, response.statusCode)
                    }
                }
                var answers: [(Int, Data, Int)] = []
                for try await answer in group { answers.append(answer) }
                return answers.sorted { $0.0 < $1.0 }
            }
        }
        // 21 handlers running: the 20, and the /metrics request that counts them.
        try await waitUntil("20 requests are in flight (and /metrics)") {
            ServeMetrics.value("imgcache_http_requests_in_flight", in: try await ServeMetrics.samples(of: serve, client: client)) == 21
        }
        // The handlers can be in flight before their shared download reaches the origin.
        try await waitUntil("the origin holds the download") { !(try await faults.arrivals()).isEmpty }

        serve.terminate()
        try await waitUntil("the listening socket closes after SIGTERM") { !NginxServer.accepts(port: serve.port) }
        XCTAssertTrue(serve.process.isRunning, "exited before its requests finished")
        try await faults.release(nil)

        let answers = try await requests.value
        XCTAssertEqual(answers.map(\.2), Array(repeating: 200, count: 20))
        for (index, data, status) in answers where status == 200 {
            XCTAssertEqual(try ImageDecoder.inspect(.data(data)).size.width, 20 + index, "request \(index)")
        }
        XCTAssertEqual(serve.waitForExit(seconds: 60), 0, serve.standardError)
        XCTAssertTrue(serve.standardError.contains("stopped; 20 requests finished while draining, 0 cut off"), serve.standardError)
        XCTAssertFalse(NginxServer.accepts(port: serve.port), "a new connection after the exit")
    }
}
