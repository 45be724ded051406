import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `serve --preset`, `--presets-file` and `--only-presets`, and `exp:` URLs, through the real
/// executable with nginx as the origin.
final class ServePresetURLTests: XCTestCase {
    var nginx: NginxServer!
    var serve: ServeProcess?
    let client = ServeClient()

    override func setUp() async throws {
        nginx = try NginxServer()
        try TestImage.jpeg(width: 1200, height: 900).write(to: nginx.root.appendingPathComponent("photo.jpg"))
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
    }

    private var photo: String { "plain/" + nginx.url("/photo.jpg").absoluteString }

    func testPresetsNameWidgetSizesSkipLoopsAndRefuseUnknownNames() async throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-presets")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("presets.conf")
        try Data("# widget sizes\nsmall=wd:iphone-16-pro:small/f:png\n\nloop=pr:back\nback=pr:loop/rs:fit:40:40\n".utf8).write(to: file)
        let serve = try ServeProcess(
            ["--allow-unsigned", "--presets-file", file.path, "--preset", "default=q:70", "--preset", "thumb=rs:fill:64:48/f:jpg"],
            signed: false)
        self.serve = serve
        let (small, smallResponse) = try await client.send(serve.url("/insecure/pr:small/" + photo))
        XCTAssertEqual(smallResponse.statusCode, 200, String(decoding: small.prefix(200), as: UTF8.self))
        XCTAssertEqual(smallResponse.header("Content-Type"), "image/png")
        XCTAssertEqual(try ImageDecoder.inspect(.data(small)).size, PixelSize(width: 486, height: 486))
        // The same options written out are the same variant: the same ETag.
        let (_, written) = try await client.send(serve.url("/insecure/wd:iphone-16-pro:small/f:png/" + photo))
        XCTAssertEqual(written.header("ETag"), smallResponse.header("ETag"))
        let thumb = try await client.body(serve.url("/insecure/pr:thumb/" + photo))
        XCTAssertEqual(try ImageDecoder.inspect(.data(thumb)).size, PixelSize(width: 64, height: 48))
        // The loop is skipped where it closes: loop -> back's rs:fit:40:40.
        let looped = try await client.body(serve.url("/insecure/pr:loop/" + photo))
        XCTAssertEqual(try ImageDecoder.inspect(.data(looped)).size.width, 40)
        ServeAssert.error(try await client.send(serve.url("/insecure/pr:nope/" + photo)), 400, containing: "unknown preset 'nope'")
    }

    func testOnlyPresetsTakesPresetNamesInPlaceOfOptions() async throws {
        let serve = try ServeProcess(
            ["--allow-unsigned", "--only-presets"], signed: false, environment: ["IMGCACHE_PRESETS": "small=wd:iphone-16-pro:small,png=f:png"])
        self.serve = serve
        let (data, response) = try await client.send(serve.url("/insecure/small:png/" + photo))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.header("Content-Type"), "image/png")
        XCTAssertEqual(try ImageDecoder.inspect(.data(data)).size, PixelSize(width: 486, height: 486))
        ServeAssert.error(try await client.send(serve.url("/insecure/w:10/" + photo)), 400, containing: "unknown preset 'w'")
    }

    func testBadPresetsStopTheServerFromStarting() throws {
        let cases: [([String], String)] = [
            (["--preset", "thumb=zz:1"], "preset 'thumb=zz:1': unknown option 'zz'"),
            (["--preset", "thumb=pr:nope"], "preset 'thumb' names preset 'nope', which is not defined"),
            (["--presets-file", "/nonexistent/presets.conf"], "--presets-file: cannot read '/nonexistent/presets.conf'"),
            (["--only-presets"], "--only-presets needs presets"),
        ]
        try ServeAssert.refusesToStart(cases)
    }

    func testExpiredURLsAre404AndLiveOnesExpireNoLaterThanTheirTime() async throws {
        let serve = try ServeProcess(["--ttl", "86400"])
        self.serve = serve
        let past = try ServeURLs.path(.init(nginx.url("/photo.jpg"), width: 32, height: 32, advanced: ["exp:1000000000"]))
        ServeAssert.error(try await client.send(serve.url(past)), 404, containing: "Expired URL")
        // Twice: the second answer comes from the server's memo of parsed paths.
        ServeAssert.error(try await client.send(serve.url(past)), 404, containing: "Expired URL")
        XCTAssertEqual(try nginx.accessLog(count: 0).count, 0, "an expired URL fetches nothing")

        let inAnHour = Int(Date().timeIntervalSince1970) + 3600
        let live = try ServeURLs.path(.init(nginx.url("/photo.jpg"), width: 32, height: 32, advanced: ["exp:\(inAnHour)"]))
        for _ in 0..<2 {  // rendered, then answered at once from the stored variant
            let (data, response) = try await client.send(serve.url(live))
            XCTAssertEqual(response.statusCode, 200, String(decoding: data.prefix(200), as: UTF8.self))
            let maxAge = try XCTUnwrap(response.header("Cache-Control")?.split(separator: "=").last.flatMap { Int($0) })
            XCTAssertTrue((1...3600).contains(maxAge), "\(response.header("Cache-Control") ?? "")")
        }
        // Without exp the TTL stands.
        let plain = try ServeURLs.path(.init(nginx.url("/photo.jpg"), width: 32, height: 32))
        let (_, response) = try await client.send(serve.url(plain))
        XCTAssertEqual(response.header("Cache-Control"), "public, max-age=86400")
    }
}
