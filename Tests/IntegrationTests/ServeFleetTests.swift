import Foundation
import ImgCache
import TestSupport
import XCTest

/// Two `imgcache serve` instances with cache folders of their own and one Redis, behind Debian's
/// nginx running Samples/serve/nginx-front.conf (ports and a self-signed certificate filled in):
/// fetched over HTTPS and HTTP/2 with curl, N URLs twice each reach both instances and make N
/// origin requests.
final class ServeFleetTests: XCTestCase {
    var origin: NginxServer!
    var redis: RedisServer!
    var instances: [ServeProcess] = []
    var front: ServerProcess?
    var folder: URL!
    static let urlCount = 6

    override func setUp() async throws {
        origin = try NginxServer()
        redis = try RedisServer()
        folder = try ServerProcess.temporaryFolder("imgcache-serve-fleet")
        for index in 0..<Self.urlCount {
            try TestImage.jpeg(width: 200, height: 150, seed: UInt8(index * 40)).write(to: origin.root.appendingPathComponent("f\(index).jpg"))
        }
    }

    override func tearDown() async throws {
        front?.stop()
        for instance in instances { instance.stop() }
        redis?.stop()
        origin?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/serve/nginx-front.conf")

    /// The sample with the test's addresses, certificate and log files in place of its own; fails
    /// when the sample no longer holds a line the test replaces.
    private func frontConfiguration(upstreams: [Int], https: Int, http: Int, certificate: URL, key: URL) throws -> String {
        var text = try String(contentsOf: Self.sample, encoding: .utf8)
        let replacements: [(String, String)] = [
            ("server 127.0.0.1:8081 ", "server 127.0.0.1:\(upstreams[0]) "),
            ("server 127.0.0.1:8082 ", "server 127.0.0.1:\(upstreams[1]) "),
            ("listen 443 ssl http2;", "listen 127.0.0.1:\(https) ssl http2;"),
            ("listen [::]:443 ssl http2;", ""),
            ("listen 80;", "listen 127.0.0.1:\(http);"),
            ("listen [::]:80;", ""),
            ("/etc/ssl/imgcache/fullchain.pem", certificate.path),
            ("/etc/ssl/imgcache/privkey.pem", key.path),
            ("/var/log/nginx/imgcache.access.log", folder.appendingPathComponent("front-access.log").path),
            ("/var/log/nginx/imgcache.error.log", folder.appendingPathComponent("front-error.log").path),
        ]
        for (sample, test) in replacements {
            guard text.contains(sample) else { throw ServerError("nginx-front.conf no longer holds '\(sample)'") }
            text = text.replacingOccurrences(of: sample, with: test)
        }
        return text
    }

    /// Debian's nginx with the filled-in sample inside a minimal http {} block, in the foreground.
    private func startFront(upstreams: [Int]) throws -> (https: Int, http: Int) {
        let certificate = folder.appendingPathComponent("cert.pem"), key = folder.appendingPathComponent("key.pem")
        let openssl = try ProductRunner.runTool("openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=localhost", "-keyout", key.path, "-out", certificate.path,
        ])
        XCTAssertEqual(openssl.status, 0, openssl.errors)
        let https = try NginxServer.freePort(), http = try NginxServer.freePort()
        let prefix = try ServerProcess.temporaryFolder("imgcache-front-nginx")
        let site = prefix.appendingPathComponent("imgcache.conf")
        try frontConfiguration(upstreams: upstreams, https: https, http: http, certificate: certificate, key: key)
            .write(to: site, atomically: true, encoding: .utf8)
        let main = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/error.log warn;
            events { worker_connections 64; }
            http {
                client_body_temp_path \(prefix.path)/client_body;
                proxy_temp_path \(prefix.path)/proxy;
                fastcgi_temp_path \(prefix.path)/fastcgi;
                uwsgi_temp_path \(prefix.path)/uwsgi;
                scgi_temp_path \(prefix.path)/scgi;
                include \(site.path);
            }
            """
        let configuration = prefix.appendingPathComponent("nginx.conf")
        try main.write(to: configuration, atomically: true, encoding: .utf8)
        let server = try ServerProcess(
            executable: NginxServer.executable,
            arguments: ["-p", prefix.path, "-c", configuration.path, "-e", prefix.appendingPathComponent("error.log").path],
            folder: prefix)
        front = server
        try server.wait { NginxServer.accepts(port: https) }
        return (https, http)
    }

    /// curl over HTTPS (any certificate) with HTTP/2 for each of `urls` in one run (so one
    /// connection): "HTTP-VERSION STATUS BYTES ETAG" a transfer.
    private func curl(_ urls: [String], http2: Bool = true) throws -> [[String]] {
        var arguments = ["-s", "-k", http2 ? "--http2" : "--http1.1", "--max-time", "30",
                         "-w", "%{http_version} %{http_code} %{size_download} %header{etag}\\n"]
        for url in urls { arguments += ["-o", "/dev/null", url] }
        let result = try Curl.run(arguments)
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    func testTwoInstancesBehindTheSampleNginxOverHTTP2MakeOneOriginRequestPerURL() async throws {
        instances = try (0..<2).map { _ in try ServeProcess(["--redis", redis.url]) }
        let (https, http) = try startFront(upstreams: instances.map(\.port))
        let paths = try ServeURLs.paths((0..<Self.urlCount).map {
            ServeURLs.Case(origin.url("/f\($0).jpg"), type: "fill", width: 96, height: 72)
        })
        let urls = paths.flatMap { path in Array(repeating: "https://127.0.0.1:\(https)\(path)", count: 2) }
        let transfers = try curl(urls)
        XCTAssertEqual(transfers.count, 2 * Self.urlCount)
        for (index, transfer) in transfers.enumerated() {
            XCTAssertEqual(transfer.count, 4, "transfer \(index): \(transfer)")
            XCTAssertEqual(transfer.first, "2", "HTTP/2: \(transfer)")
            XCTAssertEqual(transfer.dropFirst().first, "200", "transfer \(index): \(transfer)")
        }
        for pair in stride(from: 0, to: transfers.count - 1, by: 2) {
            XCTAssertEqual(transfers[pair].last, transfers[pair + 1].last, "one ETag from both instances for \(paths[pair / 2])")
        }

        let log = try origin.accessLog(count: Self.urlCount)
        XCTAssertEqual(log.count, Self.urlCount, "origin requests: \(log.map(\.path))")
        XCTAssertEqual(Set(log.map(\.path)).count, Self.urlCount)
        var served: [Double] = [], network = 0.0, shared = 0.0
        let client = ServeClient()
        for instance in instances {
            let samples = try await ServeMetrics.samples(of: instance, client: client)
            // nginx's kept-alive upstream connection, and this client's.
            XCTAssertEqual(ServeMetrics.value("imgcache_http_connections_open", in: samples), 2, "nginx keeps its connection to the instance")
            served.append(ServeMetrics.value("imgcache_http_responses_total", ["code": "200"], in: samples) ?? 0)
            network += ServeMetrics.value("imgcache_requests_total", ["outcome": "network"], in: samples) ?? 0
            shared += ServeMetrics.value("imgcache_requests_total", ["outcome": "shared"], in: samples) ?? 0
        }
        XCTAssertEqual(served, [Double(Self.urlCount), Double(Self.urlCount)], "round robin: each instance answers half")
        XCTAssertEqual(network, Double(Self.urlCount), "one download per URL")
        XCTAssertEqual(shared, Double(Self.urlCount), "the other instance reads it from Redis")

        // The front's own answers: /health through it, /metrics refused, HTTP redirected to HTTPS,
        // a request line over 8 KiB refused before any instance sees it.
        XCTAssertEqual(try curl(["https://127.0.0.1:\(https)/health"]).first?.dropFirst().first, "200")
        XCTAssertEqual(try curl(["https://127.0.0.1:\(https)/metrics"]).first?.dropFirst().first, "404")
        let redirect = try Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}",
                                                          "http://127.0.0.1:\(http)/health"])
        XCTAssertEqual(redirect.output, "301 https://127.0.0.1/health")
        let long = "https://127.0.0.1:\(https)/" + String(repeating: "a", count: 9000)
        XCTAssertEqual(try curl([long], http2: false).first?.dropFirst().first, "414")
        let after = try await ServeMetrics.samples(of: instances[0], client: client)
            + (try await ServeMetrics.samples(of: instances[1], client: client))
        let answered = after.filter { $0.name == "imgcache_http_responses_total" }.map(\.value).reduce(0, +)
        // 2N images, one /health, and the four /metrics reads of this test (the two above, then these two, not yet counted).
        XCTAssertEqual(answered, Double(2 * Self.urlCount + 1 + 2), "\(after.filter { $0.name == "imgcache_http_responses_total" })")
    }
}
