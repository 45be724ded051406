import Foundation
import ImgCache
import TestSupport
import XCTest

/// What the request-option tests of `imgcache` share: runs with variables added to the
/// environment, the JSON of `cache stats` and `cache ls`, and nginx's access log once every
/// request made so far is in it.
extension CommandRunner {
    /// The `imgcache` executable beside the test bundle.
    static var imgcache: String { Bundle.main.bundleURL.appendingPathComponent("imgcache").path }

    /// `imgcache` with `arguments` and `environment` added to the test's own, through env(1).
    static func imgcache(
        _ arguments: [String], environment: [String: String], file: StaticString = #filePath, line: UInt = #line
    ) throws -> ProductRunner.Result {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result = try ProductRunner.runTool("env", assignments + [imgcache] + arguments)
        XCTAssertFalse(result.killedBySignal, "imgcache \(arguments) was killed or timed out", file: file, line: line)
        return result
    }

    /// Parses `text` as a JSON array of objects (`cache ls --json`).
    static func jsonArray(_ text: String) throws -> [[String: Any]] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], text)
    }

    /// `imgcache cache stats --json` of `folder`, with `redis`'s counters when given (`--redis`).
    static func cacheStats(_ folder: URL, redis: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let options = redis.map { ["--redis", $0] } ?? []
        let result = try run("imgcache", ["cache", "stats", "--json", "--cache-dir", folder.path] + options, file: file, line: line)
        XCTAssertEqual(result.status, 0, result.errors, file: file, line: line)
        return try json(result.output)
    }

    /// `imgcache cache ls --json` of `folder`: every entry, most recently used first.
    static func cacheEntries(_ folder: URL, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let result = try run("imgcache", ["cache", "ls", "--json", "--cache-dir", folder.path], file: file, line: line)
        XCTAssertEqual(result.status, 0, result.errors, file: file, line: line)
        return try jsonArray(result.output)
    }

    /// The User-Agent `imgcache` sends by default: `imgcache/` and the version `--version` prints
    /// (its second word, before the commit).
    static func defaultUserAgent() throws -> String {
        let result = try run("imgcache", ["--version"])
        XCTAssertEqual(result.status, 0, result.errors)
        let words = result.output.split(separator: " ")
        XCTAssertGreaterThan(words.count, 1, result.output)
        return "imgcache/" + (words.count > 1 ? words[1] : "")
    }
}

extension NginxServer {
    /// The Accept header the loader sends.
    static let loaderAccept = "image/jpeg, image/png, image/gif, image/webp, image/heic, image/avif, */*;q=0.1"

    /// Every request nginx served before this call, in order. A marker request (a 404 for a path of
    /// its own) is made after them: nginx's one worker logs each request as it ends, so once the
    /// marker's line is in (read with `accessLog(count:)`'s bounded waits), every earlier line is
    /// too. The lines of this and earlier markers are left out.
    func settledAccessLog(file: StaticString = #filePath, line: UInt = #line) async throws -> [Request] {
        let marker = Self.markerPrefix + UUID().uuidString
        let loader = DataLoader(configuration: DataLoader.Configuration())
        do {
            _ = try await loader.load(DataRequest(url: url(marker)))
            XCTFail("the marker \(marker) was served", file: file, line: line)
        } catch let error as ImgCacheError {
            guard case .httpStatus(404, _) = error else { throw error }
        }
        var log = try accessLog(count: 1)
        let end = Date().addingTimeInterval(60)
        while !log.contains(where: { $0.path == marker }), Date() < end {
            log = try accessLog(count: log.count + 1)
        }
        guard let index = log.firstIndex(where: { $0.path == marker }) else {
            throw ServerError("the marker request \(marker) never reached the access log: \(log)")
        }
        return log[..<index].filter { !$0.path.hasPrefix(Self.markerPrefix) }
    }

    private static let markerPrefix = "/log-marker-"
}
