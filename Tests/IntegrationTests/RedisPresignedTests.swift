import Foundation
import XCTest

@testable import ImgCache

/// Four `imgcache prefetch --redis URL --ignore-query 'X-Amz-*'` processes, each with its own
/// cache folder, started at once on the same presigned URLs: ten of one object and two of each of
/// the three others. The URLs of an object share one key, so the Redis tier's leases let one
/// process download and render it while the others wait for its variant: one origin request per
/// object in nginx's access log.
final class RedisPresignedTests: RedisNginxTestCase {
    static let processCount = 4

    /// `path` presigned: its X-Amz-* items differ by `index`.
    private func presigned(_ path: String, _ index: Int) -> String {
        let signature = String(repeating: String(format: "%02x", index * 23 + 1), count: 32)
        return nginx.url(path).absoluteString + "?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            + "&X-Amz-Credential=AKIAEXAMPLE%2F20250301%2Feu-west-1%2Fs3%2Faws4_request"
            + "&X-Amz-Date=20250301T0\(index)1500Z&X-Amz-Expires=600&X-Amz-SignedHeaders=host&X-Amz-Signature=\(signature)"
    }

    /// A running `imgcache prefetch` of a list into its own cache folder.
    private func start(list: URL, cache: URL) throws -> PrefetchProcess {
        try PrefetchProcess([
            "prefetch", list.path, "--size", "48x48", "--json", "--redis", redis.url, "--ignore-query", "X-Amz-*",
            "--cache-dir", cache.path,
        ])
    }

    /// The summary of `instance`, which must exit 0 without a word on standard error.
    private func finish(_ instance: PrefetchProcess) throws -> [String: Any] {
        let (summary, errors) = try instance.finish()
        XCTAssertEqual(errors, "", "no warning while Redis is up")
        return summary
    }

    func testFourProcessesMakeOneOriginRequestPerPresignedObject() async throws {
        try FileManager.default.createDirectory(at: nginx.root.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try TestImage.jpeg(width: 320, height: 240, seed: 77).write(to: nginx.root.appendingPathComponent("photos/cat.jpg"))
        let objects = ["/photos/cat.jpg", "/p0.jpg", "/p1.jpg", "/p2.jpg"]
        let urls = (0..<10).map { presigned("/photos/cat.jpg", $0) }
            + objects.dropFirst().flatMap { path in [presigned(path, 1), presigned(path, 2)] }
        // The same URLs in every list, each list in an order of its own.
        var instances: [PrefetchProcess] = []
        var caches: [URL] = []
        let folder = temporaryFolder("imgcache-presigned-fleet")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lists: [URL] = []
        for number in 0..<Self.processCount {
            let list = folder.appendingPathComponent("urls-\(number).txt")
            let rotated = Array(urls[(number * 4)...] + urls[..<(number * 4)])
            try (number % 2 == 0 ? rotated : rotated.reversed()).joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
            lists.append(list)
            caches.append(folder.appendingPathComponent("cache-\(number)"))
        }
        for (list, cache) in zip(lists, caches) { instances.append(try start(list: list, cache: cache)) }
        let summaries = try instances.map { try finish($0) }

        // Per object, the outcome each process had for its URLs: one downloaded, three from Redis.
        // A list is streamed, each URL a group: a URL of an object whose variant the process
        // already stored is a disk hit.
        var outcomes: [String: [String]] = [:]
        for summary in summaries {
            XCTAssertEqual(summary["total"] as? Int, urls.count)
            XCTAssertEqual(summary["failed"] as? Int, 0)
            let items = try XCTUnwrap(summary["items"] as? [[String: Any]])
            var byObject: [String: Set<String>] = [:]
            for item in items {
                let url = try XCTUnwrap(URL(string: try XCTUnwrap(item["url"] as? String)))
                byObject[url.path, default: []].insert(try XCTUnwrap(item["cache"] as? String))
                XCTAssertEqual(item["pixels"] as? [String: Int], ["width": 48, "height": 36])
            }
            for (path, cache) in byObject {
                let first = cache.subtracting(["disk"])
                XCTAssertEqual(first.count, 1, "the URLs of \(path) share one outcome in one process, or are disk hits: \(cache)")
                outcomes[path, default: []] += first.sorted()
            }
        }
        XCTAssertEqual(outcomes.keys.sorted(), objects.sorted())
        for path in objects {
            XCTAssertEqual(outcomes[path]?.sorted(), ["network", "shared", "shared", "shared"], path)
        }

        let log = try await nginx.settledAccessLog()
        let perPath = Dictionary(log.map { ($0.path, 1) }, uniquingKeysWith: +)
        XCTAssertEqual(perPath, Dictionary(uniqueKeysWithValues: objects.map { ($0, 1) }), "one origin request per object: \(log.map(\.path))")
        for path in objects {
            let key = try XCTUnwrap(URL(string: presigned(path, 0))).absoluteString.components(separatedBy: "?")[0]
            XCTAssertEqual(try redis.cli("EXISTS", RedisTier.Keys(cacheKey: key).value), "1", "\(path)'s original is shared under its key without the query")
        }
        // Every process holds one variant per object on its disk.
        for cache in caches {
            XCTAssertEqual(try CommandRunner.cacheStats(cache)["variants"] as? Int, objects.count)
        }
    }
}
