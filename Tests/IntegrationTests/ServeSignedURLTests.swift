import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `imgcache serve` through the real executable, with URLs signed by the imgproxy PyPI package:
/// served with their headers and the very pixels `imgcache fetch` makes of the same request;
/// one changed byte anywhere is a 403.
final class ServeSignedURLTests: XCTestCase {
    var nginx: NginxServer!
    var serve: ServeProcess!
    let client = ServeClient()

    override func setUp() async throws {
        nginx = try NginxServer()
        try TestImage.jpeg(width: 640, height: 480).write(to: nginx.root.appendingPathComponent("photo.jpg"))
        let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/media")
        for name in ["badge.png", "spinner.gif"] {
            try FileManager.default.copyItem(at: media.appendingPathComponent(name), to: nginx.root.appendingPathComponent(name))
        }
        serve = try ServeProcess()
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
    }

    /// A signed URL, the `imgcache fetch` options that ask for the same variant, and what it is.
    private struct Case {
        let url: ServeURLs.Case
        let fetch: [String]
        let format: ImageFormat
        let size: PixelSize
        let frames: Int
    }

    func testSignedURLsAreServedWithTheirHeadersAndFetchsPixels() async throws {
        let cases = [
            Case(url: .init(nginx.url("/photo.jpg"), type: "fill", width: 200, height: 150),
                 fetch: ["--size", "200x150", "--mode", "crop"], format: .jpeg, size: PixelSize(width: 200, height: 150), frames: 1),
            // Gravity: the package's own parameter, and a focal point written as an option.
            Case(url: .init(nginx.url("/photo.jpg"), type: "fill", width: 100, height: 150, gravity: "ea"),
                 fetch: ["--size", "100x150", "--mode", "crop", "--gravity", "east"], format: .jpeg,
                 size: PixelSize(width: 100, height: 150), frames: 1),
            Case(url: .init(nginx.url("/photo.jpg"), type: "fill", width: 200, height: 50, gravity: "fp:0.5:0.2"),
                 fetch: ["--size", "200x50", "--mode", "crop", "--focus", "0.5,0.2"], format: .jpeg,
                 size: PixelSize(width: 200, height: 50), frames: 1),
            // imgproxy's blur (pixels of the result) and imgcache's tint: what fetch's --blur (points, here at 1x) makes.
            Case(url: .init(nginx.url("/photo.jpg"), type: "fill", width: 200, height: 150, advanced: ["bl:3", "ti:dark"]),
                 fetch: ["--size", "200x150", "--mode", "crop", "--blur", "3", "--tint", "dark"], format: .jpeg,
                 size: PixelSize(width: 200, height: 150), frames: 1),
            Case(url: .init(nginx.url("/photo.jpg"), plain: false, extension: "png", type: "fit", width: 120, height: 120),
                 fetch: ["--size", "120x120", "--mode", "fit", "--format", "png"], format: .png,
                 size: PixelSize(width: 120, height: 90), frames: 1),
            // Padding: a fit extended to the size at the top, on an opaque background (so JPEG).
            Case(url: .init(nginx.url("/photo.jpg"), type: "fit", width: 120, height: 120, advanced: ["ex:1:no", "bg:ff8000"]),
                 fetch: ["--size", "120x120", "--mode", "pad", "--gravity", "north", "--background", "ff8000"], format: .jpeg,
                 size: PixelSize(width: 120, height: 120), frames: 1),
            // A width alone: the height follows the source (the target's other side is the output limit's).
            Case(url: .init(nginx.url("/photo.jpg"), width: 100, advanced: ["q:60"]),
                 fetch: ["--size", "100x65535", "--mode", "fit", "--quality", "60"], format: .jpeg,
                 size: PixelSize(width: 100, height: 75), frames: 1),
            Case(url: .init(nginx.url("/badge.png"), type: "fit", width: 48, height: 48),
                 fetch: ["--size", "48x48", "--mode", "fit"], format: .png, size: PixelSize(width: 48, height: 48), frames: 1),
            Case(url: .init(nginx.url("/spinner.gif"), type: "fit", width: 32, height: 32, advanced: ["fr:4"]),
                 fetch: ["--size", "32x32", "--mode", "fit", "--max-frames", "4"], format: .gif,
                 size: PixelSize(width: 32, height: 32), frames: 4),
        ]
        let paths = try ServeURLs.paths(cases.map(\.url))
        let fetchCache = try ServerProcess.temporaryFolder("imgcache-serve-fetch")
        defer { try? FileManager.default.removeItem(at: fetchCache) }
        for (index, (served, path)) in zip(cases, paths).enumerated() {
            let (data, response) = try await client.send(serve.url(path))
            XCTAssertEqual(response.statusCode, 200, "\(path): \(String(decoding: data.prefix(200), as: UTF8.self))")
            guard response.statusCode == 200 else { continue }
            XCTAssertEqual(response.header("Content-Type"), served.format.mimeType, path)
            XCTAssertEqual(response.header("Content-Length"), String(data.count), path)
            XCTAssertEqual(response.header("Cache-Control"), "public, max-age=31536000", path)
            let tag = try XCTUnwrap(response.header("ETag"), path)
            XCTAssertNotNil(tag.range(of: #"^"[0-9a-f]{32}-[0-9a-f]{32}"$"#, options: .regularExpression), "a strong ETag: \(tag)")

            let fetched = try CommandRunner.run(
                "imgcache", ["fetch", URL(string: served.url.source)!.absoluteString, "--json", "--cache-dir", fetchCache.path] + served.fetch)
            XCTAssertEqual(fetched.status, 0, fetched.errors)
            let report = try CommandRunner.json(fetched.output)
            let file = try Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(report["path"] as? String)))
            let (servedFormat, servedBitmap) = try ServeMedia.decoded(data)
            let (fetchedFormat, fetchedBitmap) = try ServeMedia.decoded(file)
            XCTAssertEqual(servedFormat, served.format, "case \(index)")
            XCTAssertEqual(fetchedFormat, served.format, "case \(index)")
            XCTAssertEqual(servedBitmap.size, served.size, "case \(index)")
            XCTAssertEqual(fetchedBitmap.size, served.size, "case \(index)")
            if servedBitmap.size == fetchedBitmap.size {
                XCTAssertEqual(PSNR.of(servedBitmap.pixels, fetchedBitmap.pixels), .infinity, "case \(index): served and fetched pixels differ")
            }
            XCTAssertEqual(try ImageDecoder.inspect(.data(data)).frameCount, served.frames, "case \(index)")
            XCTAssertEqual(try ImageDecoder.inspect(.data(file)).frameCount, served.frames, "case \(index)")
        }
    }

    /// One byte changed anywhere after the leading "/" (the signature, the options, the source,
    /// the slashes between them) is a 403 with `Cache-Control: no-store` and one line of text,
    /// and never reaches the origin; the path as signed is a 200.
    func testOneChangedByteAnywhereInThePathIsA403() async throws {
        let paths = try ServeURLs.paths([
            .init(nginx.url("/photo.jpg"), type: "fill", width: 80, height: 60, advanced: ["q:70"]),
            .init(nginx.url("/photo.jpg"), plain: false, extension: "png", type: "fit", width: 50, height: 50),
        ])
        var refused = 0
        for path in paths {
            _ = try await client.body(serve.url(path))
            let bytes = Array(path.utf8)
            for position in 1..<bytes.count {
                var changed = bytes
                changed[position] = bytes[position] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                let mutated = String(decoding: changed, as: UTF8.self)
                ServeAssert.error(try await client.send(serve.url(mutated)), 403, containing: "forbidden", "byte \(position) of \(path)")
                refused += 1
            }
        }
        XCTAssertEqual(try nginx.accessLog(count: 1).count, 1, "only the signed paths reach the origin (one download for both)")
        let samples = try await ServeMetrics.samples(of: serve, client: client)
        XCTAssertEqual(ServeMetrics.value("imgcache_http_responses_total", ["code": "403"], in: samples), Double(refused))
    }
}
