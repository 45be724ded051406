import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `serve --fallback-image`: statuses, headers, bytes and request counts with origins that fail
/// each way (nginx and the fault server), through the real executable.
final class ServeFallbackTests: XCTestCase {
    var nginx: NginxServer!
    var faults: FaultServer!
    var serve: ServeProcess?
    let client = ServeClient()

    override func setUp() async throws {
        nginx = try NginxServer()
        faults = try FaultServer()
        try TestImage.jpeg(width: 300, height: 200, seed: 7).write(to: nginx.root.appendingPathComponent("fallback.jpg"))
        try ServeMedia.brokenJPEG().write(to: nginx.root.appendingPathComponent("broken.jpg"))
        try Data("just some text\n".utf8).write(to: nginx.root.appendingPathComponent("notes.jpg"))
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
        faults?.stop()
    }

    /// An unsigned path fitting `source` into `width` x `width`.
    private func path(_ source: URL, width: Int = 100) -> String {
        "/insecure/rs:fit:\(width):\(width)/plain/" + source.absoluteString
    }

    /// `imgcache_encode_seconds_count` of serve's `/metrics`: how many variants it has encoded.
    private func encodes(_ serve: ServeProcess) async throws -> Int {
        let text = String(decoding: try await client.body(serve.url("/metrics")), as: UTF8.self)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("imgcache_encode_seconds_count") }, text)
        return try XCTUnwrap(Int(line.split(separator: " ").last ?? ""), String(line))
    }

    /// A fallback answer: `status`, the fallback's pixels at `size`, the failure's status first in
    /// `Fallback-Image`, the fallback's TTL, no ETag.
    private func assertFallback(
        _ answer: (Data, HTTPURLResponse), status: Int = 200, failure: String, size: PixelSize = PixelSize(width: 100, height: 67),
        maxAge: Int = 60, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (data, response) = answer
        XCTAssertEqual(response.statusCode, status, String(decoding: data.prefix(200), as: UTF8.self), file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "image/jpeg", file: file, line: line)
        XCTAssertEqual(try ImageDecoder.inspect(.data(data)).size, size, file: file, line: line)
        let reason = try XCTUnwrap(response.header("Fallback-Image"), "no Fallback-Image header", file: file, line: line)
        XCTAssertTrue(reason.hasPrefix(failure + " "), reason, file: file, line: line)
        XCTAssertEqual(response.header("Cache-Control"), "public, max-age=\(maxAge)", file: file, line: line)
        XCTAssertNil(response.header("ETag"), file: file, line: line)
    }

    func testEachWayASourceFailsGetsTheFallbackPreparedOncePerOptionSet() async throws {
        let serve = try ServeProcess(
            ["--allow-unsigned", "--fallback-image", nginx.url("/fallback.jpg").absoluteString, "--allowed-hosts", "127.0.0.1"],
            signed: false)
        self.serve = serve
        // Fetched once at start, through the pipeline.
        XCTAssertEqual(try nginx.accessLog(count: 1).map(\.path), ["/fallback.jpg"])
        let before = try await encodes(serve)
        try assertFallback(try await client.send(serve.url(path(faults.url("/404")))), failure: "404")
        // The same options again: the fallback's variant is not encoded again.
        try assertFallback(try await client.send(serve.url(path(faults.url("/404")))), failure: "404")
        let afterOne = try await encodes(serve)
        XCTAssertEqual(afterOne - before, 1, "one option set, one fallback variant")
        try assertFallback(try await client.send(serve.url(path(faults.url("/500")))), failure: "502")
        try assertFallback(try await client.send(serve.url(path(faults.url("/reset")))), failure: "502")
        try assertFallback(try await client.send(serve.url(path(nginx.url("/broken.jpg")))), failure: "422")
        try assertFallback(try await client.send(serve.url(path(nginx.url("/notes.jpg")))), failure: "415")
        // A host --allowed-hosts does not list (the same server by name) is refused, before a request.
        let refused = URL(string: "http://localhost:\(nginx.url("/").port!)/fallback.jpg")!
        try assertFallback(try await client.send(serve.url(path(refused))), failure: "403")
        let afterAll = try await encodes(serve)
        XCTAssertEqual(afterAll - afterOne, 0, "every failure with those options shares the variant")
        // Other options, another variant of the same fallback original.
        try assertFallback(
            try await client.send(serve.url(path(faults.url("/404"), width: 30))), failure: "404", size: PixelSize(width: 30, height: 20))
        let afterOther = try await encodes(serve)
        XCTAssertEqual(afterOther - afterAll, 1)
        // The fallback's origin saw one request, the one at start; each failing source its own.
        XCTAssertEqual(try nginx.accessLog(count: 3).filter { $0.path == "/fallback.jpg" }.count, 1)
        let notFound = try await faults.count("/404")
        XCTAssertEqual(notFound, 3)
    }

    func testAFallbackIsNeverStoredUnderTheSourcesKey() async throws {
        let serve = try ServeProcess(
            ["--allow-unsigned", "--fallback-image", nginx.url("/fallback.jpg").absoluteString, "--fallback-ttl", "5"], signed: false)
        self.serve = serve
        let later = serve.url(path(nginx.url("/later.jpg")))
        try assertFallback(try await client.send(later), failure: "404", maxAge: 5)
        try TestImage.jpeg(width: 320, height: 240).write(to: nginx.root.appendingPathComponent("later.jpg"))
        for _ in 0..<2 {  // rendered, then answered at once
            let (data, response) = try await client.send(later)
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertNil(response.header("Fallback-Image"))
            XCTAssertNotNil(response.header("ETag"))
            XCTAssertEqual(response.header("Cache-Control"), "public, max-age=31536000")
            XCTAssertEqual(try ImageDecoder.inspect(.data(data)).size, PixelSize(width: 100, height: 75))
        }
    }

    func testFallbackStatusZeroKeepsTheFailuresStatusAndAFileFallbackWorks() async throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-fallback")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fallback.jpg")
        try TestImage.jpeg(width: 300, height: 200, seed: 7).write(to: file)
        let serve = try ServeProcess(
            ["--allow-unsigned", "--fallback-image", file.path, "--fallback-status", "0"], signed: false,
            environment: ["IMGCACHE_FALLBACK_TTL": "30"])
        self.serve = serve
        try assertFallback(try await client.send(serve.url(path(faults.url("/404")))), status: 404, failure: "404", maxAge: 30)
        try assertFallback(try await client.send(serve.url(path(nginx.url("/broken.jpg")))), status: 422, failure: "422", maxAge: 30)
        // An expiring URL keeps its own, shorter, limit.
        let soon = Int(Date().timeIntervalSince1970) + 20
        let (_, expiring) = try await client.send(serve.url("/insecure/exp:\(soon)/rs:fit:100:100/plain/" + faults.url("/404").absoluteString))
        let maxAge = try XCTUnwrap(expiring.header("Cache-Control")?.split(separator: "=").last.flatMap { Int($0) })
        XCTAssertTrue((0...20).contains(maxAge), "\(maxAge)")
        // Bad options are not the source's failure: no fallback.
        ServeAssert.error(try await client.send(serve.url("/insecure/q:101/plain/" + faults.url("/404").absoluteString)), 400)
    }

    func testAFallbackThatCannotBeReadStopsTheServerFromStarting() throws {
        let cases: [([String], String)] = [
            (["--fallback-image", "/nonexistent/fallback.jpg"], "--fallback-image '/nonexistent/fallback.jpg' cannot be used"),
            (["--fallback-image", nginx.root.appendingPathComponent("notes.jpg").path], "cannot be used: unsupported format"),
            (["--fallback-image", nginx.url("/missing.jpg").absoluteString], "cannot be used: HTTP 404"),
            (["--fallback-image", nginx.url("/fallback.jpg").absoluteString, "--fallback-status", "99"], "--fallback-status expects"),
            (["--fallback-ttl", "5"], "--fallback-status and --fallback-ttl go with --fallback-image"),
        ]
        try ServeAssert.refusesToStart(cases)
    }
}
