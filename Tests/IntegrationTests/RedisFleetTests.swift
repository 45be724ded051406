import Foundation
import XCTest

/// Four `imgcache prefetch` processes, each with its own cache folder, sharing one Redis and
/// fetching the same 100 URLs from nginx at once: about one origin request per URL, and every
/// fetch succeeds even when Redis is killed halfway.
final class RedisFleetTests: XCTestCase {
    var nginx: NginxServer!
    var redis: RedisServer!
    var folder: URL!
    var list: URL!
    static let urlCount = 100, processCount = 4

    override func setUp() async throws {
        nginx = try NginxServer()
        redis = try RedisServer()
        folder = try ServerProcess.temporaryFolder("imgcache-fleet")
        var urls: [String] = []
        for index in 0..<Self.urlCount {
            try TestImage.jpeg(width: 256, height: 192, seed: UInt8(index)).write(to: nginx.root.appendingPathComponent("f\(index).jpg"))
            urls.append(nginx.url("/f\(index).jpg").absoluteString)
        }
        list = folder.appendingPathComponent("urls.txt")
        try urls.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
    }

    override func tearDown() async throws {
        nginx?.stop()
        redis?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A running `imgcache prefetch` of the list into its own cache folder.
    private func start(_ number: Int) throws -> PrefetchProcess {
        try PrefetchProcess([
            "prefetch", list.path, "--size", "64x64", "--json", "--redis", redis.url,
            "--cache-dir", folder.appendingPathComponent("cache-\(number)").path,
        ])
    }

    /// Origin requests per path, from nginx's access log, printed with the total.
    private func originRequests(expectedAtLeast count: Int) throws -> [String: Int] {
        let log = try nginx.accessLog(count: count)
        let perPath = Dictionary(log.map { ($0.path, 1) }, uniquingKeysWith: +)
        let repeated = perPath.filter { $0.value > 1 }.sorted { $0.key < $1.key }
        print("origin requests: \(log.count) for \(perPath.count) URLs; more than one: "
            + (repeated.isEmpty ? "none" : repeated.map { "\($0.key) x\($0.value)" }.joined(separator: ", ")))
        return perPath
    }

    func testFourProcessesMakeAboutOneOriginRequestPerURL() throws {
        let start = Date()
        let instances = try (0..<Self.processCount).map { try self.start($0) }
        let results = try instances.map { try $0.finish() }
        print("4 instances x \(Self.urlCount) URLs: \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
        for (number, result) in results.enumerated() {
            XCTAssertEqual(result.summary["failed"] as? Int, 0)
            XCTAssertEqual(result.summary["total"] as? Int, Self.urlCount)
            XCTAssertEqual(result.errors, "", "no warning while Redis is up")
            print("instance \(number): network \(result.summary["network"] ?? "?"), shared \(result.summary["shared"] ?? "?")")
        }
        let perPath = try originRequests(expectedAtLeast: Self.urlCount)
        XCTAssertEqual(perPath.count, Self.urlCount)
        let total = perPath.values.reduce(0, +)
        XCTAssertLessThanOrEqual(total, Self.urlCount + 4, "about one origin request per URL")
    }

    func testEveryFetchSucceedsWhenRedisIsKilledHalfway() throws {
        let instances = try (0..<Self.processCount).map { try self.start($0) }
        // Halfway: once nginx has served half the URLs (or after 60 s at most).
        let accessLog = nginx.prefix.appendingPathComponent("access.log")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let lines = ((try? String(contentsOf: accessLog, encoding: .utf8)) ?? "").split(separator: "\n").count
            if lines >= Self.urlCount / 2 { break }
            usleep(2_000)
        }
        redis.stop()
        let results = try instances.map { try $0.finish() }
        var shared = 0
        for result in results {
            print(result.errors, terminator: "")
            XCTAssertEqual(result.summary["failed"] as? Int, 0)
            XCTAssertEqual(result.summary["total"] as? Int, Self.urlCount)
            shared += result.summary["shared"] as? Int ?? 0
            // One warning per instance that noticed the outage, never more.
            XCTAssertLessThanOrEqual(result.errors.split(separator: "\n").count, 1, result.errors)
        }
        let perPath = try originRequests(expectedAtLeast: Self.urlCount)
        print("served from Redis before it died: \(shared); warnings: \(results.filter { !$0.errors.isEmpty }.count)")
        XCTAssertEqual(perPath.count, Self.urlCount)
    }
}
