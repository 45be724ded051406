import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// Every status `imgcache serve` answers, through the real executable, with nginx and the fault
/// server as origins: 400, 403, 404, 413, 415, 422, 502, 504, 503 with Retry-After, 304, and
/// HEAD. Every error is one line of plain text.
final class ServeStatusTests: XCTestCase {
    var nginx: NginxServer!
    var faults: FaultServer!
    var serve: ServeProcess?
    let client = ServeClient()

    override func setUp() async throws {
        nginx = try NginxServer()
        faults = try FaultServer()
        try TestImage.jpeg(width: 320, height: 240).write(to: nginx.root.appendingPathComponent("photo.jpg"))
        try ServeMedia.brokenJPEG().write(to: nginx.root.appendingPathComponent("broken.jpg"))
        try ServeMedia.hugeGIF().write(to: nginx.root.appendingPathComponent("huge.gif"))
        try Data("just some text\n".utf8).write(to: nginx.root.appendingPathComponent("notes.jpg"))
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
        faults?.stop()
    }

    /// A signed path for `source` at 100x100 (fit), with `advanced` options before imgproxy's own.
    private func path(_ source: URL, advanced: [String] = [], signed: Bool = true) throws -> String {
        try ServeURLs.path(.init(source, type: "fit", width: 100, height: 100, advanced: advanced), signed: signed)
    }

    /// Sends a request whose answer the fault server holds (`/hold/first`) and returns once the
    /// fault server has it: with `--max-in-flight 1` the one handler slot is then taken until
    /// `faults.release()`.
    private func requestHeldAtTheOrigin(by serve: ServeProcess) async throws -> Task<(Data, HTTPURLResponse), any Error> {
        let client = self.client, heldURL = serve.url(try path(faults.url("/hold/first")))
        let held = Task { try await client.send(heldURL) }
        try await waitUntil("the origin holds the request") { try await faults.arrivals() == ["first"] }
        return held
    }

    func testAnUnsupportedOptionOrABadNumberIs400() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let source = nginx.url("/photo.jpg")
        ServeAssert.error(try await client.send(serve.url(try path(source, advanced: ["sh:5"]))), 400,
                          containing: "unsupported option 'sh'", "sharpen")
        ServeAssert.error(try await client.send(serve.url(try path(source, advanced: ["q:abc"]))), 400, containing: "option 'q'", "q:abc")
        ServeAssert.error(try await client.send(serve.url(try path(source, advanced: ["q:101"]))), 400, containing: "option 'q'", "q:101")
        ServeAssert.error(try await client.send(serve.url(try path(source, advanced: ["zz:1"]))), 400, containing: "unknown option 'zz'", "zz")
        let fetched = try await nginx.settledAccessLog()
        XCTAssertEqual(fetched, [], "nothing is fetched for a refused URL")
    }

    func testAnUnsignedURLIs403WhenAKeyIsSetAnd200WithAllowUnsigned() async throws {
        let insecure = try path(nginx.url("/photo.jpg"), signed: false)
        XCTAssertTrue(insecure.hasPrefix("/insecure/"), insecure)
        let signed = try ServeProcess()
        self.serve = signed
        ServeAssert.error(try await client.send(signed.url(insecure)), 403, containing: "forbidden", "insecure")
        var truncated = Array(try path(nginx.url("/photo.jpg")).utf8)
        truncated.remove(at: 10)
        ServeAssert.error(try await client.send(signed.url(String(decoding: truncated, as: UTF8.self))), 403, "a short signature")
        signed.stop()
        self.serve = nil

        let unsigned = try ServeProcess(["--allow-unsigned"], signed: false)
        self.serve = unsigned
        XCTAssertTrue(unsigned.standardError.contains("unsigned URLs allowed"), unsigned.standardError)
        let data = try await client.body(unsigned.url(insecure))
        XCTAssertEqual(try ImageDecoder.inspect(.data(data)).size, PixelSize(width: 100, height: 75))
    }

    /// WebP by `f:webp` or by the `@webp` extension, served as image/webp; a byte cap (`mb`) is
    /// met by a lower quality, and one no quality can meet is a 413.
    func testWebPOutputAndTheByteCap() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let source = nginx.url("/photo.jpg")
        var paths = try ServeURLs.paths([
            .init(source, type: "fit", width: 100, height: 100, advanced: ["f:webp"]),
            .init(source, extension: "webp", type: "fit", width: 100, height: 100),
        ])
        let full = try await client.body(serve.url(paths[0])).count
        let cap = full * 9 / 10
        paths.append(try path(source, advanced: ["f:webp", "mb:\(cap)"]))
        var sizes: [Int] = []
        for path in paths {
            let (data, response) = try await client.send(serve.url(path))
            XCTAssertEqual(response.statusCode, 200, path)
            XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), "image/webp", path)
            XCTAssertEqual(try ServeMedia.decoded(data).format, .webp, path)
            XCTAssertEqual(try ImageDecoder.inspect(.data(data)).size, PixelSize(width: 100, height: 75), path)
            sizes.append(data.count)
        }
        XCTAssertEqual(sizes[0..<2], [full, full])
        XCTAssertLessThanOrEqual(sizes[2], cap)
        ServeAssert.error(try await client.send(serve.url(try path(source, advanced: ["mb:100"]))), 413,
                          containing: "over the cap of 100 bytes", "mb:100")
    }

    /// What the origin answers, as the client sees it: 404, 413 (pixels, bytes), 415, 422, 502
    /// (a 500 after the loader's three attempts, a refused connection).
    func testOriginFailuresMapToTheirStatuses() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        ServeAssert.error(try await client.send(serve.url(try path(nginx.url("/missing.jpg")))), 404, "origin 404")
        ServeAssert.error(try await client.send(serve.url(try path(nginx.url("/huge.gif")))), 413, "20000x20000 GIF")
        // Content-Length 60,000,000, over the 50 MiB download limit; the body would come 10 s later.
        let start = Date()
        ServeAssert.error(try await client.send(serve.url(try path(faults.url("/big?length=60000000")))), 413, "60 MB download")
        XCTAssertLessThan(Date().timeIntervalSince(start), 8, "refused from its Content-Length, before the body (due in 10 s)")
        ServeAssert.error(try await client.send(serve.url(try path(nginx.url("/notes.jpg")))), 415, "text")
        ServeAssert.error(try await client.send(serve.url(try path(nginx.url("/broken.jpg")))), 422, "a broken scan")
        ServeAssert.error(try await client.send(serve.url(try path(faults.url("/500")))), 502, "origin 500")
        let attempts = try await faults.count("/500")
        XCTAssertEqual(attempts, 3, "the loader's three attempts")
        let closed = try NginxServer.freePort()
        ServeAssert.error(
            try await client.send(serve.url(try path(URL(string: "http://127.0.0.1:\(closed)/x.jpg")!))), 502, "refused connection")
        XCTAssertEqual(try nginx.accessLog(count: 4).map(\.status), [404, 200, 200, 200], "one download each: huge.gif, notes.jpg, broken.jpg")
    }

    /// An origin that never answers: 504 once `--request-timeout` (0.5 s) passes, and the origin's
    /// connection is closed (the handler cancelled); counted and logged as a 504.
    func testAStalledOriginIs504AfterTheRequestTimeout() async throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-serve-log")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("access.log")
        let serve = try ServeProcess(["--request-timeout", "0.5", "--access-log", log.path])
        self.serve = serve
        let start = Date()
        let answer = try await client.send(serve.url(try path(faults.url("/stall"))))
        let answered = Date()
        let elapsed = answered.timeIntervalSince(start)
        ServeAssert.error(answer, 504, noStore: false, "stall")
        // The time-out is the feature: 0.5 s, with 3 s of slack for a loaded machine.
        XCTAssertGreaterThanOrEqual(elapsed, 0.5)
        XCTAssertLessThan(elapsed, 3.5)
        // The handler was cancelled: its download hangs up on the origin then, long before the
        // download's own 10 s connect time-out would.
        try await waitUntil("the origin's connection is closed") { try await faults.stallEnd() != nil }
        let end = try await faults.stallEnd()
        let hungUp = try XCTUnwrap(end)
        XCTAssertLessThan(hungUp.timeIntervalSince(answered), 5, "the download hung up with the 504")
        // Once the cancelled handler has returned (only /metrics's own handler runs), the 504 is counted.
        var samples = try await ServeMetrics.samples(of: serve, client: client)
        try await waitUntil("the cancelled handler returns") {
            samples = try await ServeMetrics.samples(of: serve, client: client)
            return ServeMetrics.value("imgcache_http_requests_in_flight", in: samples) == 1
        }
        XCTAssertEqual(ServeMetrics.value("imgcache_http_responses_total", ["code": "504"], in: samples), 1,
                       "the response sent was a 504: \(samples.filter { $0.name == "imgcache_http_responses_total" })")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { try CommandRunner.json(String($0)) }
        XCTAssertEqual(lines.first?["status"] as? Int, 504, "the access log's line of the request: \(lines)")
    }

    /// `--max-in-flight 1 --max-queue 0` with one request held at the origin: the next is a 503
    /// with Retry-After at once; the held one is a 200 once the origin answers. The 503 is
    /// counted as a response and logged as a request.
    func testAFullServerAnswers503WithRetryAfter() async throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-serve-log")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("access.log")
        let serve = try ServeProcess(["--max-in-flight", "1", "--max-queue", "0", "--access-log", log.path])
        self.serve = serve
        let other = try path(nginx.url("/photo.jpg"))
        let first = try await requestHeldAtTheOrigin(by: serve)
        let refused = try await client.send(serve.url(other))
        ServeAssert.error(refused, 503, noStore: false, "busy")
        XCTAssertEqual(refused.1.header("Retry-After"), "1")
        try await faults.release()
        let (data, response) = try await first.value
        XCTAssertEqual(response.statusCode, 200, String(decoding: data.prefix(200), as: UTF8.self))
        _ = try await client.body(serve.url(other))
        let samples = try await ServeMetrics.samples(of: serve, client: client)
        XCTAssertEqual(ServeMetrics.value("imgcache_http_refused_requests_total", in: samples), 1)
        XCTAssertEqual(ServeMetrics.value("imgcache_http_responses_total", ["code": "503"], in: samples), 1,
                       "the 503 sent: \(samples.filter { $0.name == "imgcache_http_responses_total" })")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { try CommandRunner.json(String($0)) }
        XCTAssertEqual(lines.compactMap { $0["status"] as? Int }.sorted(), [200, 200, 200, 503], "a line per request (/metrics too): \(lines)")
    }

    /// A variant served before is answered on the server's thread, without a handler slot: with
    /// `--max-in-flight 1 --max-queue 0` and the one slot held at the origin, it is still a 200
    /// (outcome `disk` in the access log, its bytes and ETag as before) while a new URL is a 503,
    /// and a URL that does not verify is its 403.
    func testAServedVariantIsAnsweredAtOnceWhileEveryHandlerIsBusy() async throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-serve-log")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("access.log")
        let serve = try ServeProcess(["--max-in-flight", "1", "--max-queue", "0", "--access-log", log.path])
        self.serve = serve
        let known = serve.url(try path(nginx.url("/photo.jpg")))
        let (firstBody, firstResponse) = try await client.send(known)
        XCTAssertEqual(firstResponse.statusCode, 200)

        let held = try await requestHeldAtTheOrigin(by: serve)
        let (body, response) = try await client.send(known)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(body, firstBody)
        XCTAssertEqual(response.header("ETag"), firstResponse.header("ETag"))
        let (_, notModified) = try await client.send(known, headers: ["If-None-Match": try XCTUnwrap(firstResponse.header("ETag"))])
        XCTAssertEqual(notModified.statusCode, 304)
        let refused = try await client.send(serve.url(try path(nginx.url("/other.jpg"))))
        ServeAssert.error(refused, 503, noStore: false, "busy")
        var tampered = try path(nginx.url("/photo.jpg"))
        tampered.insert("A", at: tampered.index(after: tampered.startIndex))
        let forbidden = try await client.send(serve.url(tampered))
        XCTAssertEqual(forbidden.1.statusCode, 403)
        try await faults.release()
        _ = try await held.value

        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { try CommandRunner.json(String($0)) }
        let photo = lines.filter { ($0["path"] as? String)?.hasSuffix(".jpg") == true && $0["status"] as? Int != 503 && $0["status"] as? Int != 403 }
        XCTAssertEqual(photo.compactMap { $0["cache"] as? String }, ["network", "disk", "disk"], "\(lines)")
        let origin = try await nginx.settledAccessLog()
        XCTAssertEqual(origin.filter { $0.path == "/photo.jpg" }.count, 1, "one origin request for photo.jpg: \(origin)")
    }

    /// A URL answered again from the server's per-path memo follows its variant's file: once
    /// another process replaces the file (other bytes, a new inode), the next answer carries the new
    /// bytes and a new ETag, and the old ETag is no longer a 304.
    func testAVariantFileReplacedBehindTheServerIsServedWithItsNewBytesAndTag() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let url = serve.url(try path(nginx.url("/photo.jpg")))
        let (body, first) = try await client.send(url)
        XCTAssertEqual(first.statusCode, 200)
        let tag = try XCTUnwrap(first.header("ETag"))
        for _ in 0..<3 {
            let (again, response) = try await client.send(url)
            XCTAssertEqual(again, body)
            XCTAssertEqual(response.header("ETag"), tag)
        }
        let data = serve.cacheFolder.appendingPathComponent("data")
        let files = try FileManager.default.contentsOfDirectory(at: data, includingPropertiesForKeys: nil)
        let variant = try XCTUnwrap(files.first { (try? Data(contentsOf: $0)) == body }, "the variant's file among \(files)")
        // As long as the old file (the disk cache checks sizes), one byte of the image data other.
        var replaced = body
        replaced[replaced.count - 10] ^= 0x55
        let swap = data.appendingPathComponent("replacement.tmp")
        try replaced.write(to: swap)
        XCTAssertEqual(rename(swap.path, variant.path), 0, "replaced as a writer would: renamed over it")

        let (served, response) = try await client.send(url)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(served, replaced)
        let newTag = try XCTUnwrap(response.header("ETag"))
        XCTAssertNotEqual(newTag, tag)
        let (_, oldCondition) = try await client.send(url, headers: ["If-None-Match": tag])
        XCTAssertEqual(oldCondition.statusCode, 200)
        let (_, newCondition) = try await client.send(url, headers: ["If-None-Match": newTag])
        XCTAssertEqual(newCondition.statusCode, 304)
    }

    /// If-None-Match with the ETag (strong or weak) is a 304 with the same ETag and Cache-Control
    /// and no body; another tag is a 200. HEAD answers GET's headers without the body.
    func testIfNoneMatchIs304AndHeadHasGETsHeaders() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let url = serve.url(try path(nginx.url("/photo.jpg")))
        let (body, full) = try await client.send(url)
        XCTAssertEqual(full.statusCode, 200)
        let tag = try XCTUnwrap(full.header("ETag"))
        for condition in [tag, "W/" + tag, "\"other\", " + tag, "*"] {
            let (data, response) = try await client.send(url, headers: ["If-None-Match": condition])
            XCTAssertEqual(response.statusCode, 304, condition)
            XCTAssertEqual(data.count, 0, condition)
            XCTAssertEqual(response.header("ETag"), tag, condition)
            XCTAssertEqual(response.header("Cache-Control"), "public, max-age=31536000", condition)
        }
        let (_, other) = try await client.send(url, headers: ["If-None-Match": "\"other\""])
        XCTAssertEqual(other.statusCode, 200)

        let (headData, head) = try await client.send(url, method: "HEAD")
        XCTAssertEqual(head.statusCode, 200)
        XCTAssertEqual(headData.count, 0)
        for name in ["Content-Type", "ETag", "Cache-Control"] {
            XCTAssertEqual(head.header(name), full.header(name), name)
        }
        XCTAssertEqual(head.header("Content-Length"), String(body.count), "HEAD's Content-Length is GET's")
        let (errorData, headError) = try await client.send(serve.url(try path(nginx.url("/missing.jpg"))), method: "HEAD")
        XCTAssertEqual(headError.statusCode, 404)
        XCTAssertEqual(errorData.count, 0)
        XCTAssertEqual(headError.header("Cache-Control"), "no-store")
        XCTAssertEqual(try nginx.accessLog(count: 2).count, 2, "photo.jpg once, missing.jpg once")
    }
}
