import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `imgcache serve` with `IMGCACHE_JPEG_PROGRESSIVE=1` over real HTTP, URLs signed by the imgproxy
/// package: JPEGs are progressive unless a URL's `jpgo` says otherwise, `jpgo::1` is 4:4:4,
/// `pngo::1:16` a palette PNG; each control makes a variant (and an ETag) of its own, and a bad
/// value is a 400.
final class ServeEncoderControlTests: XCTestCase {
    var nginx: NginxServer!
    var serve: ServeProcess?
    let client = ServeClient()

    override func setUp() async throws {
        nginx = try NginxServer()
        try TestImage.jpeg(width: 640, height: 480).write(to: nginx.root.appendingPathComponent("photo.jpg"))
        var pixels: [UInt8] = []
        for y in 0..<120 {
            for x in 0..<160 { pixels += [UInt8(x), UInt8(y * 2), 200, UInt8((x + y) % 256)] }
        }
        try PNGEncoder.encode(Bitmap(size: PixelSize(width: 160, height: 120), pixels: pixels))
            .write(to: nginx.root.appendingPathComponent("icon.png"))
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
    }

    private func get(_ file: String, _ advanced: [String]) async throws -> (Data, HTTPURLResponse) {
        let path = try ServeURLs.path(.init(nginx.url("/" + file), width: 200, height: 200, advanced: advanced))
        return try await client.send(try XCTUnwrap(serve).url(path))
    }

    func testTheServersDefaultAndEachURLControlMakeVariantsOfTheirOwn() async throws {
        serve = try ServeProcess([], environment: ["IMGCACHE_JPEG_PROGRESSIVE": "1"])
        var tags: Set<String> = []
        let jpegCases: [([String], UInt8, [UInt8])] = [
            ([], 0xC2, [0x22, 0x11, 0x11]), (["jpgo:0"], 0xC0, [0x22, 0x11, 0x11]), (["jpgo::1"], 0xC2, [0x11, 0x11, 0x11]),
            (["ch:444", "jpgo:0"], 0xC0, [0x11, 0x11, 0x11]),
        ]
        for (advanced, marker, factors) in jpegCases {
            let (data, response) = try await get("photo.jpg", advanced)
            XCTAssertEqual(response.statusCode, 200, "\(advanced)")
            XCTAssertEqual(response.header("Content-Type"), "image/jpeg", "\(advanced)")
            let frame = try XCTUnwrap(EncodedLayout.startOfFrame(data), "\(advanced)")
            XCTAssertEqual(frame.marker, marker, "\(advanced)")
            XCTAssertEqual(frame.factors, factors, "\(advanced)")
            XCTAssertEqual(try ImageDecoder.decode(.data(data)).size, PixelSize(width: 200, height: 150))
            tags.insert(try XCTUnwrap(response.header("ETag")))
        }
        XCTAssertEqual(tags.count, jpegCases.count)

        let (truecolour, _) = try await get("icon.png", [])
        let (palette, response) = try await get("icon.png", ["pngo::1:16"])
        XCTAssertEqual(response.header("Content-Type"), "image/png")
        XCTAssertEqual(EncodedLayout.png(truecolour).colorType, 6, "RGBA")
        let layout = EncodedLayout.png(palette)
        XCTAssertEqual(layout.colorType, 3, "palette")
        XCTAssertEqual(layout.bitDepth, 4, "16 colours: 4 bits a pixel")
        XCTAssertEqual(layout.chunkLengths["PLTE"], 16 * 3)
        XCTAssertNotNil(layout.chunkLengths["tRNS"])
        XCTAssertEqual(try ImageDecoder.decode(.data(palette)).size, try ImageDecoder.decode(.data(truecolour)).size)

        let (body, refused) = try await get("photo.jpg", ["ch:422"])
        XCTAssertEqual(refused.statusCode, 400)
        XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("chroma '422' is not one of 420, 444"))
    }
}
