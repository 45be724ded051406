import Foundation
import ImgCache
import TestSupport
import XCTest

/// Presigned URLs through `imgcache prefetch`, `fetch` and `cache path`: ten URLs of one object on
/// nginx, which ignores their query and serves the file, differing in their X-Amz-* items. With
/// `--ignore-query 'X-Amz-*'` (or `$IMGCACHE_IGNORE_QUERY`) they share one key, so one request
/// in nginx's access log; without it, ten.
final class PresignedURLCommandTests: XCTestCase {
    var nginx: NginxServer!
    var cacheDirectory: URL!
    /// The URL list, beside the cache folder: never in it.
    var list: URL!
    var object: Data!

    override func setUp() async throws {
        nginx = try NginxServer()
        cacheDirectory = try ServerProcess.temporaryFolder("imgcache-presigned")
        try FileManager.default.createDirectory(at: nginx.root.appendingPathComponent("photos"), withIntermediateDirectories: true)
        object = try TestImage.jpeg(width: 240, height: 180, seed: 90)
        try object.write(to: nginx.root.appendingPathComponent("photos/cat.jpg"))
        list = try ServerProcess.temporaryFolder("imgcache-presigned-list").appendingPathComponent("urls.txt")
        try ("# ten presigned URLs of one object\n" + urls.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
    }

    override func tearDown() async throws {
        nginx?.stop()
        nginx = nil
        for folder in [cacheDirectory, list?.deletingLastPathComponent()].compactMap({ $0 }) {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The object's key once the X-Amz-* items are left out: its versionId stays.
    private var objectKey: String { nginx.url("/photos/cat.jpg?versionId=3").absoluteString }

    /// Ten presigned URLs of /photos/cat.jpg (version 3), signed at different times.
    private var urls: [String] {
        (0..<10).map { index in
            let signature = String(repeating: String(format: "%02x", index * 17 + 5), count: 32)
            return nginx.url("/photos/cat.jpg").absoluteString + "?versionId=3&X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAEXAMPLE%2F20250301%2Feu-west-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20250301T1\(index)0000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=\(signature)"
        }
    }

    /// `imgcache` with `arguments` and the cache folder, with `environment` added to the test's.
    private func imgcache(
        _ arguments: [String], environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line
    ) throws -> ProductRunner.Result {
        try CommandRunner.imgcache(arguments + ["--cache-dir", cacheDirectory.path], environment: environment, file: file, line: line)
    }

    /// One prefetch of the ten URLs at 60x60, then a fetch of each: the summary, and the paths
    /// the fetches printed, with their outcomes.
    private func prefetchThenFetchEach(
        _ options: [String], environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line
    ) throws -> (summary: [String: Any], fetched: [(path: String, cache: String)]) {
        let prefetch = try imgcache(["prefetch", list.path, "--size", "60x60", "--json"] + options, environment: environment)
        XCTAssertEqual(prefetch.status, 0, prefetch.errors, file: file, line: line)
        let summary = try CommandRunner.json(prefetch.output)
        XCTAssertEqual(summary["total"] as? Int, 10, file: file, line: line)
        XCTAssertEqual(summary["failed"] as? Int, 0, file: file, line: line)
        let fetched = try urls.map { url -> (String, String) in
            let result = try imgcache(["fetch", url, "--size", "60x60", "--json"] + options, environment: environment)
            XCTAssertEqual(result.status, 0, result.errors, file: file, line: line)
            let report = try CommandRunner.json(result.output)
            XCTAssertEqual(report["url"] as? String, url, file: file, line: line)
            return (try XCTUnwrap(report["path"] as? String), try XCTUnwrap(report["cache"] as? String))
        }
        return (summary, fetched)
    }

    /// Asserts one request for the object, one original and one variant, every fetch a disk hit
    /// of the variant the prefetch stored.
    private func assertOneObject(
        _ run: (summary: [String: Any], fetched: [(path: String, cache: String)]), file: StaticString = #filePath,
        line: UInt = #line
    ) async throws {
        let items = try XCTUnwrap(run.summary["items"] as? [[String: Any]], file: file, line: line)
        let paths = Set(items.compactMap { $0["path"] as? String })
        XCTAssertEqual(paths.count, 1, "one variant for the ten URLs: \(paths)", file: file, line: line)
        XCTAssertEqual(Set(run.fetched.map(\.path)), paths, file: file, line: line)
        XCTAssertEqual(run.fetched.map(\.cache), Array(repeating: "disk", count: 10), file: file, line: line)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/photos/cat.jpg"], "one origin request for the ten URLs", file: file, line: line)
        XCTAssertEqual(log.map(\.status), [200], file: file, line: line)
        let stats = try CommandRunner.cacheStats(cacheDirectory)
        XCTAssertEqual(stats["originals"] as? Int, 1, file: file, line: line)
        XCTAssertEqual(stats["variants"] as? Int, 1, file: file, line: line)
        let entries = try CommandRunner.cacheEntries(cacheDirectory)
        XCTAssertEqual(
            entries.filter { $0["kind"] as? String == "original" }.map { $0["key"] as? String }, [objectKey],
            "the key keeps versionId and drops the X-Amz-* items", file: file, line: line)
    }

    func testIgnoreQueryOptionGivesTenPresignedURLsOneRequestOneOriginalAndOneVariant() async throws {
        try await assertOneObject(try prefetchThenFetchEach(["--ignore-query", "X-Amz-*"]))
    }

    func testIgnoreQueryEnvironmentVariableDoesTheSameCaseInsensitively() async throws {
        try await assertOneObject(try prefetchThenFetchEach([], environment: ["IMGCACHE_IGNORE_QUERY": "x-amz-*"]))
    }

    func testWithoutIgnoreQueryEachPresignedURLIsItsOwnDownload() async throws {
        let run = try prefetchThenFetchEach([])
        XCTAssertEqual(run.summary["network"] as? Int, 10)
        XCTAssertEqual(Set(run.fetched.map(\.path)).count, 10, "ten variants")
        XCTAssertEqual(run.fetched.map(\.cache), Array(repeating: "disk", count: 10))
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), Array(repeating: "/photos/cat.jpg", count: 10))
        let stats = try CommandRunner.cacheStats(cacheDirectory)
        XCTAssertEqual(stats["originals"] as? Int, 10)
        XCTAssertEqual(stats["variants"] as? Int, 10)
    }

    func testCachePathWithIgnoreQueryPrintsTheStoredOriginalsPath() async throws {
        let prefetch = try imgcache(["prefetch", list.path, "--size", "60x60", "--ignore-query", "X-Amz-*"])
        XCTAssertEqual(prefetch.status, 0, prefetch.errors)
        let original = try XCTUnwrap(try CommandRunner.cacheEntries(cacheDirectory).first { $0["kind"] as? String == "original" })
        let stored = cacheDirectory.appendingPathComponent("data").appendingPathComponent(try XCTUnwrap(original["file"] as? String)).path
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stored)), object)
        // Any of the URLs, even one signed later, names the stored original.
        let later = urls[0].replacingOccurrences(of: "20250301T100000Z", with: "20250302T080000Z")
        for url in [urls[3], later] {
            let path = try imgcache(["cache", "path", url, "--ignore-query", "X-Amz-*"])
            XCTAssertEqual(path.status, 0, path.errors)
            XCTAssertEqual(path.output, stored + "\n")
        }
        let fromEnvironment = try imgcache(["cache", "path", urls[5], "--json"], environment: ["IMGCACHE_IGNORE_QUERY": "X-Amz-*"])
        XCTAssertEqual(fromEnvironment.status, 0, fromEnvironment.errors)
        let report = try CommandRunner.json(fromEnvironment.output)
        XCTAssertEqual(report["path"] as? String, stored)
        XCTAssertEqual(report["key"] as? String, objectKey)
        XCTAssertEqual(report["stored"] as? Bool, true)
        XCTAssertEqual(report["bytes"] as? Int, object.count)
        // Without the option the signed URL is a key of its own, not stored.
        let plain = try CommandRunner.json(try imgcache(["cache", "path", urls[3], "--json"]).output)
        XCTAssertEqual(plain["key"] as? String, urls[3])
        XCTAssertEqual(plain["stored"] as? Bool, false)
        XCTAssertNotEqual(plain["path"] as? String, stored)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.count, 1)
    }

    func testCachePathRefusesAnIgnoreQueryListFetchRefuses() throws {
        let fetch = try imgcache(["fetch", urls[0], "--ignore-query", "*"])
        XCTAssertEqual(fetch.status, 2, fetch.errors)
        let expected = "invalid argument: ignored query item '*' must be a name, or a name's start and '*'\n"
        XCTAssertEqual(fetch.errors, "imgcache fetch: " + expected)
        // `cache path` takes --ignore-query "as fetch takes them" (its help): the same list is refused.
        let path = try imgcache(["cache", "path", urls[0], "--ignore-query", "*"])
        XCTAssertEqual(path.status, 2, "cache path printed \(path.output)")
        XCTAssertEqual(path.errors, "imgcache cache: " + expected)
    }
}
