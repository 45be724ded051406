import Foundation
import ImgCache
import TestSupport
import XCTest

/// `imgcache fetch` and `prefetch`'s request options through the real executable against Debian's
/// nginx, whose access log shows every request and its headers: -H, --header-file and
/// --user-agent; credentials on a redirect to another server; --reload, --cache-only, --store,
/// --quality, --format, --cache-key, and --allowed-hosts checked before the cache.
final class FetchRequestOptionsTests: XCTestCase {
    var nginx: NginxServer!
    var cacheDirectory: URL!
    /// The tests' own files (header files, URL lists), beside the cache folder: never in it.
    var inputs: URL!
    /// An opaque 400x300 JPEG, served as /photo.jpg, /a.jpg, /b.jpg and /c.jpg.
    var image: Data!

    override func setUp() async throws {
        nginx = try NginxServer()
        cacheDirectory = try ServerProcess.temporaryFolder("imgcache-request-options")
        inputs = try ServerProcess.temporaryFolder("imgcache-request-inputs")
        image = try TestImage.jpeg(width: 400, height: 300)
        for name in ["photo.jpg", "a.jpg", "b.jpg", "c.jpg"] {
            try image.write(to: nginx.root.appendingPathComponent(name))
        }
    }

    override func tearDown() async throws {
        nginx?.stop()
        nginx = nil
        for folder in [cacheDirectory, inputs].compactMap({ $0 }) { try? FileManager.default.removeItem(at: folder) }
    }

    /// `imgcache VERB ... --cache-dir <the test's cache>`.
    private func imgcache(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> ProductRunner.Result
    {
        try CommandRunner.run("imgcache", arguments + ["--cache-dir", cacheDirectory.path], file: file, line: line)
    }

    /// `imgcache fetch URL --json` with `options`, which must succeed; its report.
    private func fetch(_ url: String, _ options: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: Any]
    {
        let result = try imgcache(["fetch", url, "--json"] + options, file: file, line: line)
        XCTAssertEqual(result.status, 0, result.errors, file: file, line: line)
        return try CommandRunner.json(result.output)
    }

    private func url(_ path: String) -> String { nginx.url(path).absoluteString }

    /// The path in a fetch report, whose variant must be in `format` (by name and by extension).
    private func variantPath(_ report: [String: Any], _ format: ImageFormat, file: StaticString = #filePath, line: UInt = #line)
        throws -> String
    {
        XCTAssertEqual(report["format"] as? String, format.rawValue, file: file, line: line)
        let path = try XCTUnwrap(report["path"] as? String, file: file, line: line)
        XCTAssertTrue(path.hasSuffix("." + format.fileExtension), path, file: file, line: line)
        return path
    }

    private func size(ofFileAt path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    // MARK: Headers

    func testHeaderOptionsReachTheOriginBesideTheDefaultUserAgent() async throws {
        let report = try fetch(url("/a.jpg"), ["-H", "Authorization: Bearer t0ken", "-H", "X-Trace: 7", "--size", "16x16"])
        XCTAssertEqual(report["cache"] as? String, "network")
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/a.jpg"])
        XCTAssertEqual(log.map(\.headers), [[
            "authorization": "Bearer t0ken", "x-trace": "7", "user-agent": try CommandRunner.defaultUserAgent(),
            "accept": NginxServer.loaderAccept,
        ]])
    }

    func testAHeaderFileSendsItsLinesAndSkipsTheCommentAndTheBlankLine() async throws {
        let headerFile = inputs.appendingPathComponent("headers.txt")
        // Written with a byte order mark and CRLF line ends, as some editors save it.
        try "\u{FEFF}Authorization: Bearer t0ken\r\n# CDN credentials, kept out of the process list\r\n\r\nX-Trace: 7\r\n"
            .write(to: headerFile, atomically: true, encoding: .utf8)
        let report = try fetch(url("/b.jpg"), ["--header-file", headerFile.path, "--size", "16x16"])
        XCTAssertEqual(report["cache"] as? String, "network")
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/b.jpg"])
        XCTAssertEqual(log.map(\.headers), [[
            "authorization": "Bearer t0ken", "x-trace": "7", "user-agent": try CommandRunner.defaultUserAgent(),
            "accept": NginxServer.loaderAccept,
        ]], "two headers from the file, nothing from its comment or blank line")
    }

    func testUserAgentOptionIsTheLoggedUserAgentOfFetchAndPrefetch() async throws {
        _ = try fetch(url("/a.jpg"), ["--user-agent", "widget-svc/2", "--size", "16x16"])
        let list = inputs.appendingPathComponent("urls.txt")
        try (url("/c.jpg") + "\n").write(to: list, atomically: true, encoding: .utf8)
        let prefetch = try imgcache(["prefetch", list.path, "--size", "16x16", "--user-agent", "widget-svc/2", "-H", "X-Trace: 8"])
        XCTAssertEqual(prefetch.status, 0, prefetch.errors)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/a.jpg", "/c.jpg"])
        XCTAssertEqual(log.map { $0.headers["user-agent"] }, ["widget-svc/2", "widget-svc/2"])
        XCTAssertEqual(log.map { $0.headers["x-trace"] }, [nil, "8"], "prefetch sends -H too")
    }

    func testBadHeadersExitTwoBeforeAnyRequestAndTheErrorLineHidesTheValue() async throws {
        let badFile = inputs.appendingPathComponent("bad-headers.txt")
        try "# one good line, one bad\nX-Trace: 7\nX Cookie: s3cret-5\n".write(to: badFile, atomically: true, encoding: .utf8)
        let list = inputs.appendingPathComponent("urls.txt")
        try (url("/c.jpg") + "\n").write(to: list, atomically: true, encoding: .utf8)
        let refusals: [(arguments: [String], error: String)] = [
            (["fetch", url("/a.jpg"), "-H", "X Trace: s3cret-1"],
             "imgcache fetch: invalid argument: header name has a space at character 2, which no name may hold (RFC 9110 token characters only)\n"),
            // A raw CR in the argument itself: it would end the header line and start another.
            (["fetch", url("/a.jpg"), "-H", "X-Trace: s3cret-2\rX-Injected: 1"],
             "imgcache fetch: invalid argument: header 'X-Trace' has a carriage return (CR) in its value (only tab is allowed among control characters)\n"),
            (["fetch", url("/a.jpg"), "-H", "Host: s3cret-3.example"],
             "imgcache fetch: invalid argument: header 'Host' is set by libcurl and the loader for the connection and the message's framing\n"),
            (["fetch", url("/a.jpg"), "--user-agent", "widget\nX-Injected: s3cret-4"],
             "imgcache fetch: --user-agent: invalid argument: header 'User-Agent' has a line feed (LF) in its value (only tab is allowed among control characters)\n"),
            (["fetch", url("/a.jpg"), "--header-file", badFile.path],
             "imgcache fetch: invalid argument: header name has a space at character 2, which no name may hold (RFC 9110 token characters only)\n"),
            (["prefetch", list.path, "-H", "Host: s3cret-6.example"],
             "imgcache prefetch: invalid argument: header 'Host' is set by libcurl and the loader for the connection and the message's framing\n"),
        ]
        for (arguments, error) in refusals {
            let result = try imgcache(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.errors)")
            XCTAssertEqual(result.errors, error, "\(arguments)")
            XCTAssertFalse(result.errors.contains("s3cret"), result.errors)
            XCTAssertEqual(result.output, "")
        }
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.count, 0, "no request before the headers were refused: \(log)")
        XCTAssertEqual(try CommandRunner.cacheStats(cacheDirectory)["entries"] as? Int, 0)
    }

    func testCredentialsStayAtTheFirstServerOnACrossHostRedirect() async throws {
        let other = try NginxServer()
        defer { other.stop() }
        try image.write(to: other.root.appendingPathComponent("p.jpg"))
        try image.write(to: other.root.appendingPathComponent("q.jpg"))
        let agent = try CommandRunner.defaultUserAgent()
        let redirecting = url("/redirect/127.0.0.1:\(other.port)/p.jpg")
        let report = try fetch(redirecting, [
            "-H", "Authorization: Bearer s", "-H", "Cookie: session=42", "-H", "X-Trace: 7", "--size", "16x16",
        ])
        XCTAssertEqual(report["cache"] as? String, "network")
        XCTAssertEqual(report["url"] as? String, redirecting)
        // Without X-Trace: the second server gets neither it nor the credentials.
        _ = try fetch(url("/redirect/127.0.0.1:\(other.port)/q.jpg"), ["-H", "Authorization: Bearer s", "--size", "16x16"])

        let first = try await nginx.settledAccessLog()
        XCTAssertEqual(first.map(\.status), [302, 302])
        XCTAssertEqual(first.map(\.headers), [
            ["authorization": "Bearer s", "cookie": "session=42", "x-trace": "7", "user-agent": agent, "accept": NginxServer.loaderAccept],
            ["authorization": "Bearer s", "user-agent": agent, "accept": NginxServer.loaderAccept],
        ])
        let second = try await other.settledAccessLog()
        XCTAssertEqual(second.map(\.path), ["/p.jpg", "/q.jpg"])
        XCTAssertEqual(second.map(\.status), [200, 200])
        XCTAssertEqual(second.map(\.headers), [
            ["x-trace": "7", "user-agent": agent, "accept": NginxServer.loaderAccept],
            ["user-agent": agent, "accept": NginxServer.loaderAccept],
        ], "no Authorization or Cookie at the other server")
    }

    // MARK: Cache policies

    func testReloadRevalidatesAFreshCopyWithOneConditionalRequest() async throws {
        let first = try fetch(url("/photo.jpg"), ["--size", "32x32"])
        XCTAssertEqual(first["cache"] as? String, "network")
        let path = try XCTUnwrap(first["path"] as? String)
        XCTAssertEqual(try fetch(url("/photo.jpg"), ["--size", "32x32"])["cache"] as? String, "disk", "fresh: no request")

        let reloaded = try fetch(url("/photo.jpg"), ["--size", "32x32", "--reload"])
        XCTAssertEqual(reloaded["cache"] as? String, "revalidated")
        XCTAssertEqual(reloaded["path"] as? String, path)
        XCTAssertEqual(reloaded["pixels"] as? [String: Int], ["width": 32, "height": 24])
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: path)).size, PixelSize(width: 32, height: 24))

        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/photo.jpg", "/photo.jpg"])
        XCTAssertEqual(log.map(\.status), [200, 304])
        XCTAssertEqual(log[1].bodyBytes, 0)
        let original = try XCTUnwrap(try CommandRunner.cacheEntries(cacheDirectory).first { $0["kind"] as? String == "original" })
        let etag = try XCTUnwrap(original["etag"] as? String)
        XCTAssertEqual(log.map(\.ifNoneMatch), [nil, etag], "the reload asks with the stored ETag")
    }

    func testReloadOfAChangedImageDownloadsItAndRendersTheOtherSizesFromTheNewBytes() async throws {
        let photo = url("/photo.jpg")
        XCTAssertEqual(try fetch(photo, ["--size", "32x32"])["pixels"] as? [String: Int], ["width": 32, "height": 24])
        XCTAssertEqual(try fetch(photo, ["--size", "16x16"])["pixels"] as? [String: Int], ["width": 16, "height": 12])
        // Portrait now, and another byte count, so another ETag whatever the file's time.
        let portrait = try TestImage.jpeg(width: 300, height: 400, seed: 200)
        XCTAssertNotEqual(portrait.count, image.count)
        try portrait.write(to: nginx.root.appendingPathComponent("photo.jpg"))

        let reloaded = try fetch(photo, ["--size", "32x32", "--reload"])
        XCTAssertEqual(reloaded["cache"] as? String, "network")
        XCTAssertEqual(reloaded["pixels"] as? [String: Int], ["width": 24, "height": 32])
        // The 16x16 variant made from the old bytes went with them.
        let other = try fetch(photo, ["--size", "16x16"])
        XCTAssertEqual(other["cache"] as? String, "disk")
        XCTAssertEqual(other["pixels"] as? [String: Int], ["width": 12, "height": 16])
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.status), [200, 200])
        XCTAssertNil(log[0].ifNoneMatch)
        XCTAssertNotNil(log[1].ifNoneMatch, "the reload was conditional")
        let original = try XCTUnwrap(try CommandRunner.cacheEntries(cacheDirectory).first { $0["kind"] as? String == "original" })
        XCTAssertEqual(original["bytes"] as? Int, portrait.count)
    }

    func testReloadThroughACrossHostRedirectGetsA304FromTheOtherServer() async throws {
        let other = try NginxServer()
        defer { other.stop() }
        try image.write(to: other.root.appendingPathComponent("p.jpg"))
        let redirecting = url("/redirect/127.0.0.1:\(other.port)/p.jpg")
        let options = ["-H", "Authorization: Bearer s", "--size", "16x16"]
        XCTAssertEqual(try fetch(redirecting, options)["cache"] as? String, "network")
        XCTAssertEqual(try fetch(redirecting, options + ["--reload"])["cache"] as? String, "revalidated")
        let first = try await nginx.settledAccessLog()
        XCTAssertEqual(first.map(\.status), [302, 302])
        XCTAssertEqual(first.map { $0.headers["authorization"] }, ["Bearer s", "Bearer s"])
        let second = try await other.settledAccessLog()
        XCTAssertEqual(second.map(\.status), [200, 304])
        XCTAssertEqual(second.map { $0.headers["authorization"] }, [nil, nil])
        XCTAssertNil(second[0].ifNoneMatch)
        XCTAssertNotNil(second[1].ifNoneMatch, "the validators follow the redirect")
    }

    func testCacheOnlyExits13OnAMissWithoutARequestAndServesWhatIsStored() async throws {
        let photo = url("/photo.jpg")
        let miss = try imgcache(["fetch", photo, "--size", "32x32", "--cache-only"])
        XCTAssertEqual(miss.status, 13, miss.errors)
        XCTAssertEqual(miss.errors, "imgcache fetch: not in the cache (cache only): \(photo)\n")
        XCTAssertEqual(miss.output, "")
        let missLog = try await nginx.settledAccessLog()
        XCTAssertEqual(missLog.count, 0, "a cache-only miss makes no request")

        let stored = try fetch(photo, ["--size", "32x32"])
        XCTAssertEqual(stored["cache"] as? String, "network")
        let hit = try fetch(photo, ["--size", "32x32", "--cache-only"])
        XCTAssertEqual(hit["cache"] as? String, "disk")
        XCTAssertEqual(hit["path"] as? String, stored["path"] as? String)
        // Another size: rendered from the stored original, still without a request.
        let other = try fetch(photo, ["--size", "16x16", "--cache-only"])
        XCTAssertEqual(other["cache"] as? String, "disk")
        XCTAssertEqual(other["pixels"] as? [String: Int], ["width": 16, "height": 12])
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.status), [200], "one request: the plain fetch")
    }

    func testGeneralHelpListsTheCacheOnlyExitCode() throws {
        let help = try CommandRunner.run("imgcache", ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.output.contains("12 a URL or redirect refused"), help.output)
        XCTAssertTrue(help.output.contains("13 "), "exit code 13 (--cache-only found nothing) is listed: \(help.output)")
    }

    func testCacheKeyOptionSharesOneOriginalBetweenURLs() async throws {
        let first = try fetch(url("/photo.jpg?token=one"), ["--cache-key", "photo-42", "--size", "32x32"])
        XCTAssertEqual(first["cache"] as? String, "network")
        let second = try fetch(url("/photo.jpg?token=two"), ["--cache-key", "photo-42", "--size", "32x32"])
        XCTAssertEqual(second["cache"] as? String, "disk")
        XCTAssertEqual(second["path"] as? String, first["path"] as? String)
        let entries = try CommandRunner.cacheEntries(cacheDirectory)
        XCTAssertEqual(entries.filter { $0["kind"] as? String == "original" }.map { $0["key"] as? String }, ["photo-42"])
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.count, 1)
    }

    // MARK: Storage

    func testStoreVariantsKeepsNoOriginalSoANewSizeDownloadsAgain() async throws {
        let photo = url("/photo.jpg")
        let first = try fetch(photo, ["--size", "50x50", "--store", "variants"])
        XCTAssertEqual(first["cache"] as? String, "network")
        let path = try XCTUnwrap(first["path"] as? String)
        XCTAssertTrue(path.hasPrefix(cacheDirectory.appendingPathComponent("data").path + "/"), path)
        XCTAssertEqual(try size(ofFileAt: path), first["bytes"] as? Int)
        var stats = try CommandRunner.cacheStats(cacheDirectory)
        XCTAssertEqual(stats["originals"] as? Int, 0)
        XCTAssertEqual(stats["variants"] as? Int, 1)
        let entries = try CommandRunner.cacheEntries(cacheDirectory)
        XCTAssertEqual(entries.map { $0["kind"] as? String }, ["variant"])
        XCTAssertEqual(entries.map { $0["file"] as? String }, [URL(fileURLWithPath: path).lastPathComponent])

        // The stored variant is served; a new size needs the original, which was not kept.
        XCTAssertEqual(try fetch(photo, ["--size", "50x50", "--store", "variants"])["cache"] as? String, "disk")
        let second = try fetch(photo, ["--size", "40x40", "--store", "variants"])
        XCTAssertEqual(second["cache"] as? String, "network")
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.status), [200, 200], "two downloads")
        stats = try CommandRunner.cacheStats(cacheDirectory)
        XCTAssertEqual(stats["originals"] as? Int, 0)
        XCTAssertEqual(stats["variants"] as? Int, 2)
        let verify = try imgcache(["cache", "verify"])
        XCTAssertEqual(verify.status, 0, verify.output + verify.errors)
    }

    func testStoreNoneWritesNothingAndOutputStillGetsTheBytes() async throws {
        let photo = url("/photo.jpg")
        let report = try fetch(photo, ["--size", "50x50", "--store", "none"])
        XCTAssertEqual(report["cache"] as? String, "network")
        XCTAssertEqual(report["path"] as? String, "(not stored: the server sent no-store, --store none, or over --cache-size-limit)")
        XCTAssertEqual(report["format"] as? String, "jpeg")
        XCTAssertGreaterThan(report["bytes"] as? Int ?? 0, 0)
        let output = inputs.appendingPathComponent("out.jpg")
        let written = try imgcache(["fetch", photo, "--size", "50x50", "--store", "none", "-o", output.path])
        XCTAssertEqual(written.status, 0, written.errors)
        XCTAssertEqual(written.output, output.path + "\n")
        let bytes = try Data(contentsOf: output)
        XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF])
        XCTAssertEqual(bytes.count, report["bytes"] as? Int)

        XCTAssertEqual(try CommandRunner.cacheStats(cacheDirectory)["entries"] as? Int, 0)
        XCTAssertEqual(try CommandRunner.cacheEntries(cacheDirectory).count, 0)
        let data = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.appendingPathComponent("data").path)
        XCTAssertEqual(data, [], "no file in data/")
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.status), [200, 200], "nothing stored: each fetch downloads")
    }

    // MARK: Variant format

    func testEachQualityIsItsOwnVariantFromOneDownload() async throws {
        let photo = url("/photo.jpg")
        let low = try fetch(photo, ["--quality", "20"])
        let high = try fetch(photo, ["--quality", "90"])
        XCTAssertEqual(low["cache"] as? String, "network")
        XCTAssertEqual(high["cache"] as? String, "disk", "rendered from the stored original")
        let lowPath = try XCTUnwrap(low["path"] as? String), highPath = try XCTUnwrap(high["path"] as? String)
        XCTAssertNotEqual(lowPath, highPath)
        XCTAssertEqual([low["format"] as? String, high["format"] as? String], ["jpeg", "jpeg"])
        let lowBytes = try size(ofFileAt: lowPath), highBytes = try size(ofFileAt: highPath)
        XCTAssertEqual(low["bytes"] as? Int, lowBytes)
        XCTAssertEqual(high["bytes"] as? Int, highBytes)
        XCTAssertLessThan(lowBytes, highBytes, "quality 20 is smaller than quality 90")
        for path in [lowPath, highPath] {
            XCTAssertEqual(try ImageDecoder.inspect(.file(path: path)).size, PixelSize(width: 400, height: 300))
        }
        // Each quality is found again under its own key.
        XCTAssertEqual(try fetch(photo, ["--quality", "20"])["path"] as? String, lowPath)
        XCTAssertEqual(try fetch(photo, ["--quality", "90"])["path"] as? String, highPath)
        let stats = try CommandRunner.cacheStats(cacheDirectory)
        XCTAssertEqual(stats["originals"] as? Int, 1)
        XCTAssertEqual(stats["variants"] as? Int, 2)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.count, 1, "one download for both qualities")
    }

    func testFormatPNGAndGIFMakeThoseVariantsAndFormatWithOutputIsAUsageError() async throws {
        let photo = url("/photo.jpg")
        let pngPath = try variantPath(fetch(photo, ["--size", "40x40", "--format", "png"]), .png)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: pngPath)).prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let gifPath = try variantPath(fetch(photo, ["--size", "40x40", "--format", "gif"]), .gif)
        XCTAssertEqual(String(decoding: try Data(contentsOf: URL(fileURLWithPath: gifPath)).prefix(4), as: UTF8.self), "GIF8")
        XCTAssertEqual(Set([pngPath, gifPath]).count, 2)

        let output = inputs.appendingPathComponent("x.png")
        let conflict = try imgcache(["fetch", photo, "--format", "gif", "-o", output.path])
        XCTAssertEqual(conflict.status, 2, conflict.errors)
        XCTAssertEqual(conflict.errors, "imgcache fetch: -o's extension picks the format: give --format or -o\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.count, 1, "one download; the usage error made none")
    }

    /// `--format webp` and `--max-bytes` make variants of their own from one download; a cap that
    /// cannot be met exits 14 and stores nothing.
    func testFormatWebPAndMaxBytesMakeTheirOwnVariants() async throws {
        let photo = url("/photo.jpg")
        let webpPath = try variantPath(fetch(photo, ["--size", "200x200", "--format", "webp"]), .webp)
        let full = try size(ofFileAt: webpPath)
        let cappedPath = try variantPath(fetch(photo, ["--size", "200x200", "--format", "webp", "--max-bytes", "\(full - 1)"]), .webp)
        XCTAssertNotEqual(cappedPath, webpPath)
        XCTAssertLessThan(try size(ofFileAt: cappedPath), full)
        XCTAssertEqual(try ImageDecoder.decode(.file(path: cappedPath)).info.format, .webp)

        let tooSmall = try imgcache(["fetch", photo, "--size", "200x200", "--max-bytes", "50"])
        XCTAssertEqual(tooSmall.status, 14, tooSmall.errors)
        XCTAssertTrue(tooSmall.errors.contains("over the cap of 50 bytes"), tooSmall.errors)
        XCTAssertEqual(try CommandRunner.cacheStats(cacheDirectory)["variants"] as? Int, 2)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.count, 1, "one download for every variant")
    }

    // MARK: Allowed hosts

    func testAllowedHostsAreCheckedBeforeTheCacheEvenCacheOnly() async throws {
        let photo = url("/photo.jpg")
        let stored = try fetch(photo, ["--size", "32x32"])
        XCTAssertEqual(stored["cache"] as? String, "network")
        let refusal = "imgcache fetch: refused \(photo): host '127.0.0.1' is not in the allowed hosts\n"
        for extra in [[], ["--cache-only"]] {
            let refused = try imgcache(["fetch", photo, "--size", "32x32", "--allowed-hosts", "other.example"] + extra)
            XCTAssertEqual(refused.status, 12, "\(extra): \(refused.errors)")
            XCTAssertEqual(refused.errors, refusal, "\(extra)")
            XCTAssertEqual(refused.output, "", "\(extra): the cached path is not printed")
        }
        // The host listed: served from the cache.
        let allowed = try fetch(photo, ["--size", "32x32", "--allowed-hosts", "127.0.0.1", "--cache-only"])
        XCTAssertEqual(allowed["cache"] as? String, "disk")
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.count, 1)
    }
}
