import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `imgcache serve` reads HEIC and AVIF origins (made by heif-enc and avifenc): a HEIC is served
/// at the size asked, an AVIF whose header is over the pixel limit is a 413 before decoding, and
/// `sl:` slices a HEIC screenshot.
final class ServeHEIFTests: XCTestCase {
    var nginx: NginxServer!
    var serve: ServeProcess?
    let client = ServeClient()

    override func setUp() async throws {
        guard HEIFFixtures.toolsInstalled else { throw XCTSkip("heif-enc or avifenc is missing (make setup installs them)") }
        nginx = try NginxServer()
        let folder = try HEIFFixtures.folder()
        let picture = try HEIFFixtures.picture(width: 320, height: 240)
        let heic = try HEIFFixtures.heic(picture, "photo.heic", in: folder)
        try FileManager.default.copyItem(atPath: heic, toPath: nginx.root.appendingPathComponent("photo.heic").path)
        let avif = try HEIFFixtures.avif([picture], "big.avif", in: folder)
        let huge = HEIFFixtures.withSpatialExtents(try [UInt8](Data(contentsOf: URL(fileURLWithPath: avif))), width: 12_000, height: 10_000)
        try Data(huge).write(to: nginx.root.appendingPathComponent("huge.avif"))
        let screenshot = try HomeScreenshot.write(size: PixelSize(width: 750, height: 1334), to: folder.appendingPathComponent("home.png"))
        try FileManager.default.copyItem(atPath: screenshot, toPath: nginx.root.appendingPathComponent("home.png").path)
        let pixels = try ImageDecoder.decode(.file(path: screenshot)).frames[0].bitmap
        let heicScreenshot = try HEIFFixtures.heic(pixels, "home.heic", in: folder, options: ["-L", "-p", "chroma=444"])
        try FileManager.default.copyItem(atPath: heicScreenshot, toPath: nginx.root.appendingPathComponent("home.heic").path)
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
    }

    func testAHEICIsServedAndAnAVIFOverThePixelLimitIs413() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let photo = try ServeURLs.path(.init(nginx.url("/photo.heic"), type: "fit", width: 100, height: 100))
        let (data, response) = try await client.send(serve.url(photo))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try ImageDecoder.inspect(.data(data)).size, PixelSize(width: 100, height: 75))
        let huge = try ServeURLs.path(.init(nginx.url("/huge.avif"), type: "fit", width: 100, height: 100))
        ServeAssert.error(try await client.send(serve.url(huge)), 413, containing: "12000x10000", "12000x10000 AVIF")
    }

    /// `sl:` cuts the same wallpaper out of a HEIC screenshot as out of the PNG it was made from.
    func testSliceOfAHEICScreenshot() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        var slices: [Bitmap] = []
        for name in ["home.png", "home.heic"] {
            let path = try ServeURLs.path(.init(nginx.url("/\(name)"), extension: "png", advanced: ["sl:medium:top"]))
            let (data, response) = try await client.send(serve.url(path))
            XCTAssertEqual(response.statusCode, 200, name)
            slices.append(try ImageDecoder.decode(.data(data)).frames[0].bitmap)
        }
        XCTAssertEqual(slices[0].size, slices[1].size)
        XCTAssertGreaterThan(PSNR.of(slices[0].pixels, slices[1].pixels), 40)
    }
}
