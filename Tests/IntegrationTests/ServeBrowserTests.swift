import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// A real browser fetching through `serve --auto-format avif,webp`: Debian's headless Chromium
/// opens a page from an nginx on 127.0.0.1 whose `<img>`s point at serve (a photo, a translucent
/// badge, an animated spinner); the page writes their natural sizes into its title once they
/// load, read back with `--dump-dom`. serve's access log shows the browser's one request for each
/// and that its bytes were the AVIF's.
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
        let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/media")
        for name in ["badge.png", "spinner.gif"] {
            try FileManager.default.copyItem(at: media.appendingPathComponent(name), to: nginx.root.appendingPathComponent(name))
        }
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

    func testChromiumGetsTheImagesAsAVIFAndDecodesThem() async throws {
        let serve = try ServeProcess(["--auto-format", "avif,webp", "--access-log", "-"])
        self.serve = serve
        // An opaque photo, a translucent badge and an animated spinner (an AVIF sequence).
        let images = [("photo.jpg", "200x150"), ("badge.png", "200x200"), ("spinner.gif", "200x200")]
        let paths = try images.map { name, _ in try ServeURLs.path(.init(nginx.url("/" + name), width: 200, height: 200)) }
        let tags = paths.map { "<img src=\"\(serve.url($0).absoluteString)\">" }.joined(separator: "\n")
        let page = """
            <!doctype html><html><head><title>waiting</title></head>
            <body onload="document.title = Array.from(document.images).map(i => i.naturalWidth + 'x' + i.naturalHeight).join(' ')">
            \(tags)
            </body></html>
            """
        try Data(page.utf8).write(to: nginx.root.appendingPathComponent("page.html"))
        let dom = try dumpedDOM(of: nginx.url("/page.html"))
        XCTAssertTrue(dom.contains("<title>\(images.map(\.1).joined(separator: " "))</title>"), dom)

        // The browser's requests, one an image, logged: 200s of exactly the AVIFs the route gives
        // for its Accept (the test's own requests come after).
        let logged = serve.waitForOutputLines(images.count, seconds: 30)
        XCTAssertEqual(logged.count, images.count, serve.standardOutput)
        var served: [String: (status: Int?, bytes: Int?)] = [:]
        for line in logged {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            served[try XCTUnwrap(object["path"] as? String)] = (object["status"] as? Int, object["bytes"] as? Int)
        }
        for path in paths {
            let (avif, response) = try await client.send(
                serve.url(path), headers: ["Accept": "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"])
            XCTAssertEqual(response.header("Content-Type"), "image/avif")
            XCTAssertEqual(try ImageFormat.sniff(avif), .avif)
            // The access log writes the path without its signature.
            let logged = try XCTUnwrap(served[String(path.dropFirst().drop { $0 != "/" })], "\(path) not in \(served)")
            XCTAssertEqual(logged.status, 200)
            XCTAssertEqual(logged.bytes, avif.count, path)
        }
        let spinner = try ImageDecoder.decode(.data(try await client.body(serve.url(paths[2]))), options: DecodingOptions(maxFrames: 100))
        XCTAssertGreaterThan(spinner.frames.count, 1, "the spinner stays animated")
    }
}
