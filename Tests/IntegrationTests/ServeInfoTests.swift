import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `imgcache serve`'s `/info/SIGNATURE/OPTIONS/SOURCE`, through the real executable with nginx as
/// the origin: the source's facts, the variant the options prepare and its pixels' facts (those
/// of the variant an image URL with the same options serves), an ETag and 304, and the statuses
/// an image URL has.
final class ServeInfoTests: XCTestCase {
    var nginx: NginxServer!
    var serve: ServeProcess?
    let client = ServeClient()

    override func setUp() async throws {
        nginx = try NginxServer()
        try TestImage.jpeg(width: 320, height: 240).write(to: nginx.root.appendingPathComponent("photo.jpg"))
        // White over its top third, black under its bottom third, grey between.
        var pixels = [UInt8]()
        for y in 0..<300 {
            let level: UInt8 = y < 100 ? 255 : y < 200 ? 128 : 0
            for _ in 0..<240 { pixels += [level, level, level, 255] }
        }
        try PNGEncoder.encode(try Bitmap(size: PixelSize(width: 240, height: 300), pixels: pixels))
            .write(to: nginx.root.appendingPathComponent("bands.png"))
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
    }

    private func object(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
    }

    func testInfoDescribesTheSourceTheVariantAndItsPixels() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let photo = nginx.url("/photo.jpg")
        let imagePath = try ServeURLs.path(.init(photo, type: "fit", width: 100, height: 100, advanced: ["f:png"]))
        let (data, response) = try await client.send(serve.url("/info" + imagePath))
        XCTAssertEqual(response.statusCode, 200, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(response.header("Cache-Control"), "public, max-age=31536000")
        let info = try object(data)
        XCTAssertEqual(info["format"] as? String, "jpeg")
        XCTAssertEqual(info["width"] as? Int, 320)
        XCTAssertEqual(info["height"] as? Int, 240)
        XCTAssertEqual(info["size"] as? Int, try TestImage.jpeg(width: 320, height: 240).count)
        XCTAssertEqual(info["frames"] as? Int, 1)
        XCTAssertEqual(info["orientation"] as? Int, 1)
        let variant = try XCTUnwrap(info["variant"] as? [String: Any])
        XCTAssertEqual(variant["format"] as? String, "png")
        XCTAssertEqual(variant["width"] as? Int, 100)
        XCTAssertEqual(variant["height"] as? Int, 75)

        // The facts are those of the pixels the image URL serves (a PNG: the same pixels).
        let png = try await client.body(serve.url(imagePath))
        XCTAssertEqual(variant["size"] as? Int, png.count)
        let facts = try ImageFacts(of: try ImageDecoder.decode(.data(png)).frames[0].bitmap)
        XCTAssertEqual(info["blurhash"] as? String, facts.blurHash)
        XCTAssertEqual(info["thumbhash"] as? String, Data(facts.thumbHash).base64EncodedString())
        let average = try XCTUnwrap(info["average"] as? [String: Int])
        XCTAssertEqual(average, ["R": Int(facts.average.red), "G": Int(facts.average.green), "B": Int(facts.average.blue), "A": 255])

        // Asked again: the same body and tag, from what was kept; If-None-Match gives 304.
        let (again, second) = try await client.send(serve.url("/info" + imagePath))
        XCTAssertEqual(again, data)
        let tag = try XCTUnwrap(response.header("ETag"))
        XCTAssertEqual(second.header("ETag"), tag)
        let (empty, notModified) = try await client.send(serve.url("/info" + imagePath), headers: ["If-None-Match": tag])
        XCTAssertEqual(notModified.statusCode, 304)
        XCTAssertTrue(empty.isEmpty)
        let fetched = try await nginx.settledAccessLog()
        XCTAssertEqual(fetched.count, 1, "the original is fetched once: \(fetched)")
    }

    func testLegibilityOfABandedSourceAndTheOptionsThatChangeIt() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let bands = nginx.url("/bands.png")
        let paths = try ServeURLs.paths([.init(bands, type: "fit", width: 120, height: 150), .init(bands, type: "fill", width: 120, height: 40)])
        let whole = try object(try await client.body(serve.url("/info" + paths[0])))
        let legibility = try XCTUnwrap(whole["legibility"] as? [String: [String: Any]])
        XCTAssertEqual(legibility["top"]?["text"] as? String, "black")
        XCTAssertEqual(legibility["top"]?["black_contrast"] as? Double, 21)
        XCTAssertEqual(legibility["bottom"]?["text"] as? String, "white")
        XCTAssertEqual(legibility["bottom"]?["white_contrast"] as? Double, 21)
        let dominant = try XCTUnwrap(whole["dominant_colors"] as? [[String: Any]])
        // The three bands, a third each but for the rows the resampler blends at their edges.
        let shares = dominant.compactMap { $0["share"] as? Double }
        XCTAssertEqual(shares.prefix(3).map { ($0 * 100).rounded() }, [33, 33, 32], "\(dominant)")
        let levels = Set(dominant.prefix(3).compactMap { $0["R"] as? Int })
        XCTAssertEqual(levels, [255, 128, 0], "\(dominant)")
        // Cropped to the middle band: grey all over.
        let middle = try object(try await client.body(serve.url("/info" + paths[1])))
        XCTAssertEqual((middle["variant"] as? [String: Any])?["height"] as? Int, 40)
        XCTAssertEqual(middle["average"] as? [String: Int], ["R": 128, "G": 128, "B": 128, "A": 255])
        XCTAssertEqual((middle["dominant_colors"] as? [[String: Any]])?.count, 1)
    }

    func testInfoPathsAreRefusedAsImagePathsAre() async throws {
        let serve = try ServeProcess()
        self.serve = serve
        let photo = nginx.url("/photo.jpg")
        let unsigned = try ServeURLs.path(.init(photo, type: "fit", width: 100, height: 100), signed: false)
        ServeAssert.error(try await client.send(serve.url("/info" + unsigned)), 403, "an unsigned info path")
        let badOption = try ServeURLs.path(.init(photo, type: "fit", width: 100, height: 100, advanced: ["zz:1"]))
        ServeAssert.error(try await client.send(serve.url("/info" + badOption)), 400, containing: "unknown option 'zz'", "zz")
        let missing = try ServeURLs.path(.init(nginx.url("/missing.jpg"), type: "fit", width: 100, height: 100))
        ServeAssert.error(try await client.send(serve.url("/info" + missing)), 404, "a missing source")
        ServeAssert.error(try await client.send(serve.url("/info/")), 404, "no signature")
        // An expired URL is a 404 with nothing fetched; a live one's max-age is the time it has left.
        let past = try ServeURLs.path(.init(photo, width: 32, height: 32, advanced: ["exp:1000000000"]))
        ServeAssert.error(try await client.send(serve.url("/info" + past)), 404, containing: "Expired URL")
        let inAnHour = Int(Date().timeIntervalSince1970) + 3600
        let live = try ServeURLs.path(.init(photo, width: 32, height: 32, advanced: ["exp:\(inAnHour)"]))
        for _ in 0..<2 {
            let (data, response) = try await client.send(serve.url("/info" + live))
            XCTAssertEqual(response.statusCode, 200, String(decoding: data.prefix(200), as: UTF8.self))
            let maxAge = try XCTUnwrap(response.header("Cache-Control")?.split(separator: "=").last.flatMap { Int($0) })
            XCTAssertTrue((1...3600).contains(maxAge), "\(response.header("Cache-Control") ?? "")")
        }
        let fetched = try await nginx.settledAccessLog()
        XCTAssertEqual(fetched.filter { $0.path == "/photo.jpg" }.count, 1, "only the live URL fetched the source: \(fetched)")
    }
}
