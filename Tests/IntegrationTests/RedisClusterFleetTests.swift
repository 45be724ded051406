import Foundation
import XCTest

@testable import ImgCache

/// Four `imgcache prefetch` processes sharing a 6-node Redis Cluster, fetching the same URLs
/// from nginx at once, with a master killed once a sixth of them are fetched (so that its replica
/// is promoted while the fleet still fetches): every fetch succeeds, and the origin sees each URL
/// once, plus at most the fetches in flight at the kill (4 x 8): the leases and values of the
/// killed master's slots move to stand-in tags on the live masters until its replica is promoted.
/// Once it is, a new list is fetched about once.
final class RedisClusterFleetTests: XCTestCase {
    var nginx: NginxServer!
    var cluster: RedisCluster!
    var folder: URL!
    var list: URL!
    static let urlCount = 600, processCount = 4, laterURLCount = 100
    /// Downloads an instance runs at once (`maxConcurrentLoads`'s default).
    static let loadsPerInstance = 8

    override func setUp() async throws {
        cluster = try RedisCluster()
        nginx = try NginxServer()
        folder = try ServerProcess.temporaryFolder("imgcache-cluster-fleet")
        list = try writeList("urls.txt", (0..<Self.urlCount).map { "/f\($0).jpg" })
    }

    /// A list of nginx URLs of `paths`, each a distinct JPEG.
    private func writeList(_ name: String, _ paths: [String]) throws -> URL {
        for (index, path) in paths.enumerated() {
            try TestImage.jpeg(width: 256, height: 192, seed: UInt8(index % 256)).write(to: nginx.root.appendingPathComponent(path))
        }
        let file = folder.appendingPathComponent(name)
        try paths.map { nginx.url($0).absoluteString }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    override func tearDown() async throws {
        nginx?.stop()
        cluster?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func start(_ number: Int, list: URL) throws -> PrefetchProcess {
        try PrefetchProcess([
            "prefetch", list.path, "--size", "64x64", "--json", "--redis", cluster.url,
            "--cache-dir", folder.appendingPathComponent("cache-\(number)").path,
        ])
    }

    func testEveryFetchSucceedsWhenAMasterIsKilledMidway() throws {
        let instances = try (0..<Self.processCount).map { try self.start($0, list: list) }
        // Once nginx has served a sixth of the URLs (or after 60 s at most).
        let accessLog = nginx.prefix.appendingPathComponent("access.log")
        func served() -> Int { ((try? String(contentsOf: accessLog, encoding: .utf8)) ?? "").split(separator: "\n").count }
        let deadline = Date().addingTimeInterval(60)
        while served() < Self.urlCount / 6, Date() < deadline { usleep(2_000) }
        // The first seed of the URL: the instances started later find it down, and warn of nothing.
        let victim = cluster.ports[0]
        let killedSlots = try XCTUnwrap(try cluster.masters()[victim], "redis-cli makes the first nodes named masters")
        let servedAtKill = served()
        let killed = Date()
        cluster.kill(port: victim)
        let results = try instances.map { try $0.finish() }
        let after = Date().timeIntervalSince(killed)
        for result in results {
            XCTAssertEqual(result.summary["failed"] as? Int, 0)
            XCTAssertEqual(result.summary["total"] as? Int, Self.urlCount)
            // One warning per instance that noticed the outage, never more.
            XCTAssertLessThanOrEqual(result.errors.split(separator: "\n").count, 1, result.errors)
        }
        let log = try nginx.accessLog(count: Self.urlCount)
        let perPath = Dictionary(log.map { ($0.path, 1) }, uniquingKeysWith: +)
        XCTAssertEqual(perPath.count, Self.urlCount)
        let shared = results.reduce(0) { $0 + ($1.summary["shared"] as? Int ?? 0) }
        let victimURLs = (0..<Self.urlCount).filter { index in
            let key = RedisTier.Keys(cacheKey: nginx.url("/f\(index).jpg").absoluteString).value
            return killedSlots.contains { $0.contains(RedisHashSlot.slot(of: key)) }
        }.count
        let bound = Self.urlCount + Self.processCount * Self.loadsPerInstance
        print("\(Self.processCount) instances x \(Self.urlCount) URLs, master \(victim) (\(victimURLs) of the URLs) killed after "
            + "\(servedAtKill) origin requests: \(log.count) origin requests in all (\(log.count - Self.urlCount) more than the URLs; "
            + "bound \(bound)), \(shared) served from the cluster; warnings: \(results.filter { !$0.errors.isEmpty }.count); "
            + "the fleet finished \(String(format: "%.2f", after)) s after the kill")
        XCTAssertLessThanOrEqual(log.count, bound)
        // Once the replica is promoted, the fleet shares again: a new list, about once each.
        try cluster.waitUntilServing()
        let standIns = try cluster.masters().keys.reduce(0) { count, port in
            count + (try cluster.cli(port, "--scan", "--pattern", "imgcache:[ov]:*~*")).split(separator: "\n").count
        }
        print("values under stand-in tags on the live masters: \(standIns)")
        XCTAssertGreaterThan(standIns, 0, "the killed master's images go to stand-in tags meanwhile")
        let later = try writeList("later.txt", (0..<Self.laterURLCount).map { "/later\($0).jpg" })
        let again = try (0..<Self.processCount).map { try self.start($0, list: later) }
        for result in try again.map({ try $0.finish() }) {
            XCTAssertEqual(result.summary["failed"] as? Int, 0)
            XCTAssertEqual(result.errors, "", "no warning once the replica serves")
        }
        let laterRequests = try nginx.accessLog(count: Self.urlCount + Self.laterURLCount).filter { $0.path.hasPrefix("/later") }.count
        print("after the promotion: \(laterRequests) origin requests for \(Self.laterURLCount) new URLs")
        XCTAssertLessThanOrEqual(laterRequests, Self.laterURLCount + Self.processCount)
        // `cache stats` adds up the counter shards of every master.
        let stats = try CommandRunner.cacheStats(folder.appendingPathComponent("cache-0"), redis: cluster.url)
        let counters = try XCTUnwrap(stats["redis"] as? [String: Any])
        XCTAssertEqual(counters["available"] as? Bool, true)
        XCTAssertEqual(counters["url"] as? String, "redis-cluster://127.0.0.1:\(cluster.ports[0]),127.0.0.1:\(cluster.ports[1])")
        XCTAssertGreaterThanOrEqual(counters["stores"] as? Int ?? 0, 2 * Self.laterURLCount, "each new URL's original and variant")
        XCTAssertGreaterThan(counters["errors"] as? Int ?? 0, 0, "the outage's")
    }
}
