import Foundation
import XCTest

/// `--redis` and `$IMGCACHE_REDIS` on the command line: fetch, prefetch and cache stats.
final class RedisCommandTests: XCTestCase {
    var nginx: NginxServer!
    var redis: RedisServer!
    var folder: URL!

    override func setUp() async throws {
        nginx = try NginxServer()
        redis = try RedisServer()
        folder = try ServerProcess.temporaryFolder("imgcache-redis-cli")
        try TestImage.jpeg().write(to: nginx.root.appendingPathComponent("photo.jpg"))
    }

    override func tearDown() async throws {
        nginx?.stop()
        redis?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func fetch(cache: String, _ options: [String]) throws -> (outcome: String?, errors: String) {
        let result = try CommandRunner.run("imgcache", [
            "fetch", nginx.url("/photo.jpg").absoluteString, "--size", "16x16", "--json",
            "--cache-dir", folder.appendingPathComponent(cache).path,
        ] + options)
        XCTAssertEqual(result.status, 0, result.errors)
        return (try CommandRunner.json(result.output)["cache"] as? String, result.errors)
    }

    func testFetchSharesThroughRedisAndStatsShowTheCounters() async throws {
        XCTAssertEqual(try fetch(cache: "a", ["--redis", redis.url]).outcome, "network")
        XCTAssertEqual(try fetch(cache: "b", ["--redis", redis.url]).outcome, "shared")
        let served = try await nginx.settledAccessLog()
        XCTAssertEqual(served.count, 1)
        let stats = try CommandRunner.cacheStats(folder.appendingPathComponent("b"), redis: redis.url)
        let counters = try XCTUnwrap(stats["redis"] as? [String: Any])
        XCTAssertEqual(counters["available"] as? Bool, true)
        XCTAssertEqual(counters["url"] as? String, "redis://127.0.0.1:\(redis.port)/0")
        // a: variant and original missed, both stored; b: the variant hit.
        XCTAssertEqual(counters["hits"] as? Int, 1)
        XCTAssertEqual(counters["misses"] as? Int, 2)
        XCTAssertEqual(counters["stores"] as? Int, 2)
        XCTAssertEqual(counters["errors"] as? Int, 0)
        XCTAssertEqual(counters["rejected"] as? Int, 0)
        XCTAssertEqual(counters["leasesUnavailable"] as? Int, 0)
        let text = try CommandRunner.run("imgcache", [
            "cache", "stats", "--cache-dir", folder.appendingPathComponent("b").path, "--redis", redis.url,
        ])
        XCTAssertTrue(text.output.contains("redis: redis://127.0.0.1:\(redis.port)/0: 1 hits, 2 misses (0 rejected), 2 stores, 0 errors, 0 leases unavailable (all instances)"), text.output)
    }

    func testUnreachableRedisWarnsOnceAndEveryFetchSucceeds() throws {
        let url = "redis://127.0.0.1:\(try NginxServer.freePort())/0"
        let result = try fetch(cache: "a", ["--redis", url])
        XCTAssertEqual(result.outcome, "network")
        let warnings = result.errors.split(separator: "\n")
        XCTAssertEqual(warnings.count, 1, result.errors)
        XCTAssertTrue(warnings[0].hasPrefix("imgcache: warning: Redis at \(url) is unavailable"), result.errors)
        let stats = try CommandRunner.run("imgcache", ["cache", "stats", "--cache-dir", folder.appendingPathComponent("a").path, "--redis", url])
        XCTAssertEqual(stats.status, 0, stats.errors)
        XCTAssertTrue(stats.output.contains("redis: \(url): unavailable"), stats.output)
    }

    func testEnvironmentVariableAndBadURLs() throws {
        setenv("IMGCACHE_REDIS", redis.url, 1)
        defer { unsetenv("IMGCACHE_REDIS") }
        XCTAssertEqual(try fetch(cache: "a", []).outcome, "network")
        XCTAssertEqual(try fetch(cache: "b", []).outcome, "shared")
        for options in [["--redis", "http://127.0.0.1:1/0"], ["--redis", "redis://127.0.0.1:6379/99"]] {
            let result = try CommandRunner.run("imgcache", ["fetch", nginx.url("/photo.jpg").absoluteString] + options)
            XCTAssertEqual(result.status, 2, result.errors)
        }
        let misplaced = try CommandRunner.run("imgcache", ["cache", "ls", "--cache-dir", folder.path, "--redis", redis.url])
        XCTAssertEqual(misplaced.status, 2, misplaced.errors)
    }

    func testTheSecretAuthenticatesValuesAcrossInstances() throws {
        let secret = String(repeating: "0123456789abcdef", count: 4)
        let signed = ["IMGCACHE_REDIS": redis.url, "IMGCACHE_REDIS_SECRET": " \(secret.uppercased())\n"]
        let first = try CommandRunner.imgcache(
            ["fetch", nginx.url("/photo.jpg").absoluteString, "--size", "16x16", "--json", "--cache-dir", folder.appendingPathComponent("a").path],
            environment: signed)
        XCTAssertEqual(first.status, 0, first.errors)
        XCTAssertEqual(try CommandRunner.json(first.output)["cache"] as? String, "network")
        // The same secret: shared. None, or another: the values are rejected, fetched and stored again.
        let cases: [(String, [String: String], String)] = [
            ("b", ["IMGCACHE_REDIS_SECRET": secret], "shared"), ("c", [:], "network"),
            ("d", ["IMGCACHE_REDIS_SECRET": String(repeating: "f", count: 64)], "network"),
        ]
        for (cache, secretVariable, outcome) in cases {
            let result = try CommandRunner.imgcache(
                ["fetch", nginx.url("/photo.jpg").absoluteString, "--size", "16x16", "--json", "--cache-dir", folder.appendingPathComponent(cache).path],
                environment: ["IMGCACHE_REDIS": redis.url].merging(secretVariable) { $1 })
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertEqual(try CommandRunner.json(result.output)["cache"] as? String, outcome, cache)
        }
        let stats = try CommandRunner.imgcache(["cache", "stats", "--json", "--cache-dir", folder.appendingPathComponent("a").path], environment: signed)
        let counters = try XCTUnwrap(CommandRunner.json(stats.output)["redis"] as? [String: Any])
        // c rejected a's variant and original (signed); d rejected c's (unsigned).
        XCTAssertEqual(counters["rejected"] as? Int, 4)
        for bad in ["", "0123", "xyz" + String(repeating: "0", count: 61), String(repeating: "0", count: 31)] {
            let result = try CommandRunner.imgcache(
                ["fetch", nginx.url("/photo.jpg").absoluteString, "--cache-dir", folder.appendingPathComponent("e").path],
                environment: ["IMGCACHE_REDIS": redis.url, "IMGCACHE_REDIS_SECRET": bad])
            XCTAssertEqual(result.status, 2, "'\(bad)': \(result.errors)")
            XCTAssertTrue(result.errors.contains("IMGCACHE_REDIS_SECRET"), result.errors)
        }
    }
}
