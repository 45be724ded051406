import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `imgcache serve` with `po:1` and `te:`: a still poster of an animation, a 413 for an image over
/// its timeline entry's budget, and the fitted size with `te:N:widgetkit:1`.
final class ServePosterTimelineTests: XCTestCase {
    var nginx: NginxServer!
    var serve: ServeProcess!
    let client = ServeClient()

    override func setUp() async throws {
        nginx = try NginxServer()
        let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/media")
        for name in ["harbour.jpg", "spinner.gif"] {
            try FileManager.default.copyItem(at: media.appendingPathComponent(name), to: nginx.root.appendingPathComponent(name))
        }
        serve = try ServeProcess()
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
    }

    func testPosterIsOneStillAndATimelineOverItsBudgetIs413UnlessFitted() async throws {
        let paths = try ServeURLs.paths([
            .init(nginx.url("/spinner.gif"), type: "fit", width: 120, height: 120, advanced: ["po:1"]),
            .init(nginx.url("/harbour.jpg"), type: "fill", width: 1032, height: 1098, advanced: ["te:8"]),
            .init(nginx.url("/harbour.jpg"), type: "fill", width: 1032, height: 1098, advanced: ["te:8:widgetkit:1"]),
        ])
        let poster = try ImageDecoder.decode(.data(try await client.body(serve.url(paths[0]))), options: DecodingOptions(maxFrames: 100))
        XCTAssertEqual(poster.frames.count, 1)
        XCTAssertEqual(poster.size, PixelSize(width: 120, height: 120))
        ServeAssert.error(try await client.send(serve.url(paths[1])), 413, containing: "over the 2621440 bytes each of 8 timeline entries")
        let fitted = try ImageDecoder.inspect(.data(try await client.body(serve.url(paths[2]))))
        XCTAssertEqual(fitted.size, PixelSize(width: 784, height: 834))
    }
}
