import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// A real browser fetching through `serve --auto-format avif,webp`: Debian's headless Chromium
/// opens a page from an nginx on 127.0.0.1 whose `<img>` points at serve; the page's script
/// writes the image's natural size into its title once it decodes, read back with `--dump-dom`.
/// serve's access log shows the one request the browser made and that its bytes were the AVIF's.
final class ServeBrowserTests: XCTestCase {
    var nginx: NginxServer!
    var serve: ServeProcess?
    let client = ServeClient()

    override func setUp() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            throw XCTSkip("/usr/bin/chromium is missing (apt-get install chromium, or make setup)")
        }
        nginx = try NginxServer()
        try TestImage.jpeg(width: 640, height: 480).write(to: nginx.root.appendingPathComponent("photo.jpg"))
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
    }

    /// The page's DOM once loaded, as headless Chromium dumps it (its own profile folder, no
    /// sandbox: the tests may run as root; at most 120 s, the runner's bound for a hung browser).
    private func dumpedDOM(of page: URL) throws -> String {
        let profile = try ServerProcess.temporaryFolder("imgcache-chromium")
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try ProductRunner.runTool("chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
            "--virtual-time-budget=30000", "--dump-dom", page.absoluteString,
        ])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertFalse(result.killedBySignal, "chromium did not finish within 120 s")
        return result.output
    }

    func testChromiumGetsTheImageAsAVIFAndDecodesIt() async throws {
        let serve = try ServeProcess(["--auto-format", "avif,webp", "--access-log", "-"])
        self.serve = serve
        let path = try ServeURLs.path(.init(nginx.url("/photo.jpg"), width: 200, height: 200))
        let page = """
            <!doctype html><html><head><title>waiting</title></head><body>
            <img src="\(serve.url(path).absoluteString)"
                 onload="document.title = 'decoded ' + this.naturalWidth + 'x' + this.naturalHeight"
                 onerror="document.title = 'failed'">
            </body></html>
            """
        try Data(page.utf8).write(to: nginx.root.appendingPathComponent("page.html"))
        let dom = try dumpedDOM(of: nginx.url("/page.html"))
        XCTAssertTrue(dom.contains("<title>decoded 200x150</title>"), dom)

        // The browser's one request, logged: a 200 of exactly the AVIF the route gives for its Accept.
        let logged = try XCTUnwrap(serve.waitForOutputLines(1, seconds: 30).first)
        let line = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(logged.utf8)) as? [String: Any])
        XCTAssertEqual(line["path"] as? String, String(path.dropFirst().drop { $0 != "/" }), "the path without its signature")
        XCTAssertEqual(line["status"] as? Int, 200)
        let (avif, response) = try await client.send(
            serve.url(path), headers: ["Accept": "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"])
        XCTAssertEqual(response.header("Content-Type"), "image/avif")
        XCTAssertEqual(try ImageFormat.sniff(avif), .avif)
        XCTAssertEqual(line["bytes"] as? Int, avif.count)
        XCTAssertEqual(serve.waitForOutputLines(2, seconds: 30).count, 2, "the browser asked once, the test once")
    }
}
