import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `imgcache serve` reads HEIC and AVIF origins (made by heif-enc and avifenc): a HEIC is served
/// at the size asked, and an AVIF whose header is over the pixel limit is a 413 before decoding.
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
}
