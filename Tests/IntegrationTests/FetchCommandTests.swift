import Foundation
import ImgCache
import XCTest

/// `imgcache fetch` and `prefetch` against Debian's nginx: widget sizes, cache hits that make no
/// request (read from nginx's access log once every request made is in it), revalidation after
/// the TTL, and GIF frame limits.
final class FetchCommandTests: XCTestCase {
    var nginx: NginxServer!
    var cacheDirectory: URL!

    override func setUp() async throws {
        nginx = try NginxServer()
        cacheDirectory = try ServerProcess.temporaryFolder("imgcache-fetch-cache")
        try FileManager.default.createDirectory(at: nginx.root.appendingPathComponent("three-seconds"), withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        nginx?.stop()
        nginx = nil
    }

    private func fetch(_ path: String, _ options: [String]) throws -> [String: Any] {
        let result = try CommandRunner.run(
            "imgcache", ["fetch", nginx.url(path).absoluteString, "--json", "--cache-dir", cacheDirectory.path] + options)
        XCTAssertEqual(result.status, 0, result.errors)
        return try CommandRunner.json(result.output)
    }

    func testWidgetFetchIsPixelExactThenAHitThenRevalidatedAfterTheTTL() async throws {
        try TestImage.jpeg(width: 1200, height: 800).write(to: nginx.root.appendingPathComponent("three-seconds/x.jpg"))
        let widget = ["--device", "iPhone 16 Pro", "--widget", "medium"]
        let first = try fetch("/three-seconds/x.jpg", widget)
        let served = Date()
        XCTAssertEqual(first["pixels"] as? [String: Int], ["width": 1032, "height": 486])
        XCTAssertEqual(first["points"] as? [String: Double], ["width": 344, "height": 162])
        XCTAssertEqual(first["scale"] as? Double, 3)
        XCTAssertEqual(first["cache"] as? String, "network")
        // The second fetch comes at once, while the response is fresh; the checks of the log and
        // the file wait until after it.
        let second = try fetch("/three-seconds/x.jpg", widget)
        XCTAssertEqual(second["cache"] as? String, "disk")
        let path = try XCTUnwrap(first["path"] as? String)
        XCTAssertEqual(second["path"] as? String, path)
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: path)).size, PixelSize(width: 1032, height: 486))
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.status), [200], "one download; a cache hit must not reach the server")

        // nginx sent max-age=3: outliving it is what this part tests (any later is as stale).
        let stale = served.addingTimeInterval(3.2).timeIntervalSinceNow
        if stale > 0 { try await Task.sleep(for: .seconds(stale)) }
        let third = try fetch("/three-seconds/x.jpg", widget)
        XCTAssertEqual(third["cache"] as? String, "revalidated")
        let revalidated = try await nginx.settledAccessLog()
        XCTAssertEqual(revalidated.map(\.status), [200, 304])
        XCTAssertEqual(revalidated.last?.bodyBytes, 0)
        XCTAssertNotNil(revalidated.last?.ifNoneMatch)
    }

    func testA300FrameGIFKeepsEightFramesOrFewerUnderABudget() async throws {
        let encoder = try GIFEncoder(size: PixelSize(width: 80, height: 60), loopCount: 0)
        for index in 0..<300 {
            var pixels = [UInt8](repeating: 255, count: 80 * 60 * 4)
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                pixels[offset] = UInt8(index % 256)
                pixels[offset + 1] = UInt8((offset / 4) % 80 * 3)
            }
            try encoder.add(ImageFrame(bitmap: Bitmap(size: PixelSize(width: 80, height: 60), pixels: pixels), delayCentiseconds: 4))
        }
        try encoder.finish().write(to: nginx.root.appendingPathComponent("anim.gif"))
        let eight = try fetch("/anim.gif", ["--size", "40x30", "--max-frames", "8"])
        XCTAssertEqual(eight["frames"] as? Int, 8)
        XCTAssertEqual(eight["format"] as? String, "gif")
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: XCTUnwrap(eight["path"] as? String))).frameCount, 8)
        // 40x30 frames take 4,800 bytes: a 20,000-byte budget keeps 4; a tiny one still keeps 1.
        XCTAssertEqual(try fetch("/anim.gif", ["--size", "40x30", "--max-frames", "8", "--budget", "20000"])["frames"] as? Int, 4)
        XCTAssertEqual(try fetch("/anim.gif", ["--size", "40x30", "--budget", "1KB"])["frames"] as? Int, 1)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/anim.gif"], "variants of one URL share one download")
    }

    func testOneFetchForEveryPhoneWidgetDownloadsOnceAndGivesEachItsPixels() async throws {
        try TestImage.jpeg(width: 2400, height: 1600).write(to: nginx.root.appendingPathComponent("story.jpg"))
        let result = try CommandRunner.run("imgcache", [
            "fetch", nginx.url("/story.jpg").absoluteString, "--device", "iphones", "--widget", "small,medium,large",
            "--json", "--cache-dir", cacheDirectory.path,
        ])
        XCTAssertEqual(result.status, 0, result.errors)
        let phones = DeviceCatalog.devices.filter { $0.kind == .iPhone }
        let known = phones.flatMap { device in
            [WidgetFamily.small, .medium, .large].compactMap { try? device.widgetPixels($0) }
        }
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(reports.count, known.count)
        for (report, pixels) in zip(reports, known) {
            XCTAssertEqual(report["pixels"] as? [String: Int], ["width": pixels.width, "height": pixels.height])
            let path = try XCTUnwrap(report["path"] as? String)
            XCTAssertEqual(try ImageDecoder.inspect(.file(path: path)).size, pixels)
            XCTAssertEqual(report["format"] as? String, "jpeg")
        }
        XCTAssertTrue(result.errors.contains("no published size, skipped: iPhone Air small"), result.errors)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/story.jpg"], "one download for every size")
        let plain = try CommandRunner.run("imgcache", [
            "fetch", nginx.url("/story.jpg").absoluteString, "--device", "iPhone 16 Pro,iPhone SE (3rd generation)",
            "--widget", "small", "--cache-dir", cacheDirectory.path,
        ])
        XCTAssertEqual(plain.output.split(separator: "\n").count, 2, plain.output)
        let withOutput = try CommandRunner.run("imgcache", [
            "fetch", nginx.url("/story.jpg").absoluteString, "--device", "all", "--widget", "small", "-o", "x.jpg",
            "--cache-dir", cacheDirectory.path,
        ])
        XCTAssertEqual(withOutput.status, 2, withOutput.errors)
    }

    func testPrefetchFetchesAListAndReportsFailures() throws {
        for index in 0..<5 {
            try TestImage.jpeg(seed: UInt8(index)).write(to: nginx.root.appendingPathComponent("p\(index).jpg"))
        }
        // Beside the cache folder, not in it: a folder that holds a file is no new cache.
        let list = try ServerProcess.temporaryFolder("imgcache-fetch-list").appendingPathComponent("urls.txt")
        defer { try? FileManager.default.removeItem(at: list.deletingLastPathComponent()) }
        let urls = (0..<5).map { nginx.url("/p\($0).jpg").absoluteString } + [nginx.url("/missing.jpg").absoluteString]
        try ("# six URLs\n" + urls.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        let result = try CommandRunner.run("imgcache", ["prefetch", list.path, "--size", "32x32", "--cache-dir", cacheDirectory.path])
        XCTAssertEqual(result.status, 11, result.errors)
        XCTAssertTrue(result.output.hasPrefix("prefetched 5 of 6: 5 from the network, 0 revalidated, 0 already cached, 1 failed"), result.output)
        XCTAssertTrue(result.output.contains("failed \(urls[5]): HTTP 404"), result.output)
        let again = try CommandRunner.run(
            "imgcache", ["prefetch", list.path, "--size", "32x32", "--cache-dir", cacheDirectory.path, "--json"])
        let summary = try CommandRunner.json(again.output)
        XCTAssertEqual(summary["cached"] as? Int, 5)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        let verify = try CommandRunner.run("imgcache", ["cache", "verify", "--cache-dir", cacheDirectory.path])
        XCTAssertEqual(verify.status, 0, verify.output + verify.errors)
    }

    func testFeedWidgetPreparesEveryWidgetSizeOfEveryDeviceFromOneDownload() async throws {
        try TestImage.jpeg(width: 1500, height: 1000).write(to: nginx.root.appendingPathComponent("story.jpg"))
        let feed = #"{"items": [{"title": "Story", "image": "\#(nginx.url("/story.jpg").absoluteString)"}]}"#
        try Data(feed.utf8).write(to: nginx.root.appendingPathComponent("feed.json"))
        let result = try CommandRunner.run("feed-widget", [
            nginx.url("/feed.json").absoluteString, "--polls", "1", "--cache-dir", cacheDirectory.path,
        ])
        XCTAssertEqual(result.status, 0, result.errors)
        let sizes = DeviceCatalog.devices.reduce(0) { count, device in
            count + [WidgetFamily.small, .medium, .large].filter { device.widgetSizes[$0] != nil }.count
        }
        XCTAssertTrue(result.output.contains("1 items x \(sizes) widget sizes"), result.output)
        XCTAssertEqual(result.output.components(separatedBy: ", network").count - 1, sizes, result.output)
        XCTAssertTrue(result.output.contains("story.jpg on iPad 10.2-inch (7th-9th gen) medium: 544x248 px"), result.output)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/feed.json", "/story.jpg"])
    }

    func testFeedWidgetSkipsUnchangedPollsAndPreparesEveryDeviceSize() async throws {
        try TestImage.jpeg(width: 1500, height: 1000).write(to: nginx.root.appendingPathComponent("story.jpg"))
        let feed = #"{"items": [{"title": "Story", "image": "\#(nginx.url("/story.jpg").absoluteString)"}]}"#
        try Data(feed.utf8).write(to: nginx.root.appendingPathComponent("feed.json"))
        let result = try CommandRunner.run("feed-widget", [
            nginx.url("/feed.json").absoluteString, "--devices", "iPhone 16 Pro,iPhone SE (3rd generation)",
            "--widget", "medium", "--polls", "2", "--interval", "0.2", "--cache-dir", cacheDirectory.path,
        ])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("poll 1: feed changed (network), 1 items x 2 widget sizes"), result.output)
        XCTAssertTrue(result.output.contains("story.jpg on iPhone 16 Pro / 17 / 17 Pro medium: 1032x486 px"), result.output)
        XCTAssertTrue(result.output.contains("poll 2: feed unchanged"), result.output)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/feed.json", "/story.jpg"])
    }
}

extension FetchCommandTests {
    func testAllowedHostsRefuseOtherHostsWithExit12AndBadPatternsWithExit2() async throws {
        try TestImage.jpeg().write(to: nginx.root.appendingPathComponent("x.jpg"))
        let other = nginx.url("/x.jpg").absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let refused = try CommandRunner.run("imgcache", [
            "fetch", other, "--size", "8x8", "--allowed-hosts", "127.0.0.1,*.example.com", "--cache-dir", cacheDirectory.path,
        ])
        XCTAssertEqual(refused.status, 12, refused.errors)
        XCTAssertEqual(refused.errors, "imgcache fetch: refused \(other): host 'localhost' is not in the allowed hosts\n")
        let allowed = try CommandRunner.run("imgcache", [
            "fetch", nginx.url("/x.jpg").absoluteString, "--size", "8x8", "--allowed-hosts", "127.0.0.1",
            "--cache-dir", cacheDirectory.path,
        ])
        XCTAssertEqual(allowed.status, 0, allowed.errors)
        let bad = try CommandRunner.run("imgcache", [
            "fetch", nginx.url("/x.jpg").absoluteString, "--allowed-hosts", "*", "--cache-dir", cacheDirectory.path,
        ])
        XCTAssertEqual(bad.status, 2, bad.errors)
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/x.jpg"], "only the allowed fetch reached the server")
    }
}
