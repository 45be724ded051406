import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// `imgcache serve --auto-format avif,webp` over real HTTP: a URL naming no format is answered
/// in the first listed format its Accept header names, with `Vary: Accept` (304s too), an ETag
/// of its own and a variant of its own; URLs naming a format, and servers without the flag,
/// answer as before (`f:avif` is AVIF, `f:heic` a 400).
final class ServeAutoFormatTests: XCTestCase {
    var nginx: NginxServer!
    var serve: ServeProcess?
    let client = ServeClient()
    private let chromium = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

    override func setUp() async throws {
        nginx = try NginxServer()
        try TestImage.jpeg(width: 640, height: 480).write(to: nginx.root.appendingPathComponent("photo.jpg"))
    }

    override func tearDown() async throws {
        serve?.stop()
        nginx?.stop()
    }

    private func photo(advanced: [String] = [], extension: String = "") throws -> String {
        try ServeURLs.path(.init(nginx.url("/photo.jpg"), extension: `extension`, width: 200, height: 200, advanced: advanced))
    }

    private func get(_ path: String, accept: String?, ifNoneMatch: String? = nil) async throws -> (Data, HTTPURLResponse) {
        var headers: [String: String] = [:]
        headers["Accept"] = accept
        headers["If-None-Match"] = ifNoneMatch
        return try await client.send(try XCTUnwrap(serve).url(path), headers: headers)
    }

    func testAcceptPicksTheFormatWithVaryAndATagOfItsOwn() async throws {
        serve = try ServeProcess(["--auto-format", "avif,webp"])
        let path = try photo()
        var tags: [String: String] = [:]
        for (accept, type) in [(chromium, "image/avif"), ("image/webp,*/*", "image/webp"), ("image/avif;q=0, image/webp", "image/webp"),
                               ("image/*,*/*;q=0.8", "image/jpeg"), (nil, "image/jpeg")] as [(String?, String)] {
            let (data, response) = try await get(path, accept: accept)
            XCTAssertEqual(response.statusCode, 200, accept ?? "no Accept")
            XCTAssertEqual(response.header("Content-Type"), type, accept ?? "no Accept")
            XCTAssertEqual(response.header("Vary"), "Accept", accept ?? "no Accept")
            let read = try ImageDecoder.decode(.data(data))
            XCTAssertEqual(read.info.format.mimeType, type)
            XCTAssertEqual(read.size, PixelSize(width: 200, height: 150))
            let tag = try XCTUnwrap(response.header("ETag"))
            XCTAssertEqual(tags[type] ?? tag, tag, "one variant, one tag per format")
            tags[type] = tag
        }
        XCTAssertEqual(Set(tags.values).count, 3, "\(tags)")

        // Asked again (answered at once from the stored variant): the same format and tag; a 304
        // for its own tag only, with Vary too.
        let (again, repeated) = try await get(path, accept: chromium)
        XCTAssertEqual(repeated.header("ETag"), tags["image/avif"])
        XCTAssertEqual(try ImageFormat.sniff(again), .avif)
        let (_, notModified) = try await get(path, accept: chromium, ifNoneMatch: tags["image/avif"])
        XCTAssertEqual(notModified.statusCode, 304)
        XCTAssertEqual(notModified.header("Vary"), "Accept")
        let (_, otherFormat) = try await get(path, accept: "image/webp", ifNoneMatch: tags["image/avif"])
        XCTAssertEqual(otherFormat.statusCode, 200)
        XCTAssertEqual(otherFormat.header("ETag"), tags["image/webp"])

        // q is the negotiated format's quality; a URL naming a format is not negotiated.
        let (lower, _) = try await get(try photo(advanced: ["q:20"]), accept: chromium)
        XCTAssertEqual(try ImageFormat.sniff(lower), .avif)
        XCTAssertLessThan(lower.count, again.count)
        let (png, named) = try await get(try photo(extension: "png"), accept: chromium)
        XCTAssertEqual(named.header("Content-Type"), "image/png")
        XCTAssertNil(named.header("Vary"))
        XCTAssertEqual(try ImageFormat.sniff(png), .png)

        // An error on a negotiating route varies too.
        let missing = try ServeURLs.path(.init(nginx.url("/missing.jpg"), width: 200, height: 200))
        let (_, failed) = try await get(missing, accept: chromium)
        XCTAssertEqual(failed.statusCode, 404)
        XCTAssertEqual(failed.header("Vary"), "Accept")
    }

    func testWithoutTheFlagAcceptChangesNothingAndTheVariableSetsIt() async throws {
        serve = try ServeProcess()
        let path = try photo()
        let (_, plain) = try await get(path, accept: chromium)
        XCTAssertEqual(plain.header("Content-Type"), "image/jpeg")
        XCTAssertNil(plain.header("Vary"))
        // AVIF when the URL names it; HEIC refused, saying why.
        let (avif, named) = try await get(try photo(extension: "avif"), accept: nil)
        XCTAssertEqual(named.header("Content-Type"), "image/avif")
        XCTAssertEqual(try ImageDecoder.decode(.data(avif)).size, PixelSize(width: 200, height: 150))
        ServeAssert.error(try await get(try photo(advanced: ["f:heic"]), accept: nil), 400, containing: "x265, is GPL", "f:heic")
        serve?.stop()

        serve = try ServeProcess(environment: ["IMGCACHE_AUTO_FORMAT": "webp"])
        let (data, response) = try await get(path, accept: chromium)
        XCTAssertEqual(response.header("Content-Type"), "image/webp")
        XCTAssertEqual(try ImageFormat.sniff(data), .webp)
    }

    func testAnAutoFormatOtherThanAVIFOrWebPIsAUsageError() throws {
        let cache = try ServerProcess.temporaryFolder("imgcache-serve-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        for list in ["gif", "avif,avif", "avif,,webp", "heic"] {
            let result = try ProductRunner.run(
                "imgcache", try ServeProcess.commandLine(["--allow-unsigned", "--auto-format", list], cacheFolder: cache), timeout: 60)
            XCTAssertEqual(result.status, 2, list + ": " + result.errors)
            XCTAssertTrue(result.errors.contains("--auto-format expects avif, webp or both"), result.errors)
        }
    }
}
