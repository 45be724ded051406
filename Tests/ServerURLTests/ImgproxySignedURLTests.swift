import Foundation
@testable import ImgCache
import ImgCacheServerURLs
import TestSupport
import XCTest

/// URLs built and signed by the imgproxy PyPI package (what a Python service's signing code
/// makes): each verifies with the same key and salt and maps to the request it asks for; one
/// changed byte anywhere is refused with a 403; unsigned URLs pass only where allowed.
final class ImgproxySignedURLTests: XCTestCase {
    private typealias Case = ImgproxySigner.Case
    private typealias Params = ImgproxySigner.Case.Params

    private static let photo = ServeParsing.source
    private static let photoURL = ServeParsing.sourceURL
    /// A source with spaces, Cyrillic, a query and an "@", to decode back to one URL both ways.
    private static let awkward = "https://images.example.com/фото/a b.jpg?w=1&at=@home&x=%41"
    private static let awkwardURL = URL(string: "https://images.example.com/%D1%84%D0%BE%D1%82%D0%BE/a%20b.jpg?w=1&at=@home&x=%41")!

    /// Each case as plain and as base64, with what it must map to.
    private func signedCases() throws -> [(case: Case, expected: ImageRequest)] {
        let iPhone16Pro = try ServeParsing.device("iphone-16-pro")
        let iPhone8 = try ServeParsing.device("iphone-8")
        let widest = 16_777_216 / 300
        let table: [(source: String, extension: String, params: Params, advanced: [String], expected: ImageRequest)] = [
            (Self.photo, "", Params(resizing_type: "fit", width: 300, height: 200), [],
             ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 300, height: 200)), contentMode: .fit)),
            (Self.photo, "png", Params(resizing_type: "fill", width: 300, height: 200), [],
             ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 300, height: 200)), contentMode: .crop, outputFormat: .png)),
            (Self.photo, "jpg", Params(resizing_type: "fill-down", width: 510, height: 510), ["q:70"],
             ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 510, height: 510)), contentMode: .crop,
                          outputFormat: .jpeg(quality: 70))),
            (Self.photo, "", Params(resizing_type: "fit", width: 300), [],
             ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 300, height: widest)), contentMode: .fit)),
            (Self.photo, "gif", Params(resizing_type: "fill", height: 400, enlarge: true), ["fr:8", "bu:4MB"],
             ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 16_777_216 / 400, height: 400)), contentMode: .fit,
                          allowsUpscaling: true, maxFrames: 8, frameBudgetBytes: 4 << 20, outputFormat: .gif)),
            (Self.photo, "", Params(resizing_type: "fit"), ["q:60"],
             ImageRequest(url: Self.photoURL, quality: 60)),
            (Self.photo, "", Params(resizing_type: "fit", width: 300, height: 200), ["bl:2.5", "ti:dark"],
             ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 300, height: 200)), contentMode: .fit,
                          processors: [try GaussianBlur(sigma: 2.5, unit: .pixels), Tint.dark])),
            (Self.photo, "", Params(resizing_type: "fit", width: 150, height: 100), ["dpr:2"],
             ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 300, height: 200)), contentMode: .fit)),
            (Self.photo, "", Params(resizing_type: "fill", width: 101, height: 51, enlarge: true), ["dpr:1.5", "f:jpeg", "q:90"],
             ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 152, height: 77)), contentMode: .crop,
                          allowsUpscaling: true, outputFormat: .jpeg(quality: 90))),
            (Self.photo, "", Params(resizing_type: "fill"), ["wd:iphone-16-pro:medium"],
             ImageRequest(url: Self.photoURL, target: .widget(.medium, device: iPhone16Pro), contentMode: .crop)),
            (Self.photo, "png", Params(resizing_type: "fit"), ["wd:iPhone-16-Pro:large", "cp:keep"],
             ImageRequest(url: Self.photoURL, target: .widget(.large, device: iPhone16Pro), contentMode: .fit, outputFormat: .png,
                          colorPolicy: .keep)),
            (Self.photo, "", Params(resizing_type: "fill-down"), ["wd:iphone-8:today-compact:xl", "cp:ignore"],
             ImageRequest(url: Self.photoURL, target: .today(.compact(.xl), device: iPhone8), contentMode: .crop, colorPolicy: .ignore)),
            (Self.photo, "", Params(resizing_type: "fit", width: 640, height: 480), ["cb:v2"],
             ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 640, height: 480)), contentMode: .fit,
                          cacheKey: Self.photo + " cachebuster:v2")),
            // The package puts `g:GRAVITY/rs:...` after the advanced options: their size and
            // enlarge are overridden, as imgproxy applies options in order.
            (Self.photo, "", Params(resizing_type: "fit"), ["w:500", "h:500", "el:1"],
             ImageRequest(url: Self.photoURL)),
            (Self.awkward, "png", Params(resizing_type: "fit", width: 64, height: 64), ["fr:1"],
             ImageRequest(url: Self.awkwardURL, target: .pixels(PixelSize(width: 64, height: 64)), maxFrames: 1, outputFormat: .png)),
        ]
        return table.flatMap { row in
            [true, false].map { plain in
                (Case(source: row.source, plain: plain, extension: row.extension, params: row.params, advanced: row.advanced), row.expected)
            }
        }
    }

    func testURLsSignedByTheImgproxyPackageVerifyAndMapToTheirRequests() throws {
        let cases = try signedCases()
        let (version, paths) = try ImgproxySigner.paths(cases.map(\.case), keyHex: ServeParsing.keyHex, saltHex: ServeParsing.saltHex)
        XCTAssertFalse(version.isEmpty)
        let parser = try ServeParsing.signed()
        for ((testCase, expected), path) in zip(cases, paths) {
            XCTAssertTrue(path.contains(testCase.plain ? "/plain/" : "/g:ce/"), path)
            let serve = try parser.parse(path: path)
            XCTAssertEqual(serve.sourceURL, expected.url, path)
            XCTAssertEqual(serve.imageRequest, expected, path)
            // The pipeline takes it as it is.
            XCTAssertNoThrow(try RequestPlan(expected, ImagePipeline.Configuration()), path)
            // The query is not signed: one added to a signed path changes nothing.
            XCTAssertEqual(try parser.parse(path: path + "?utm_source=mail").imageRequest, expected, path)
        }
    }

    func testASignedSliceVerifiesAndWaitsForTheScreenshotsSize() throws {
        let cases = [Case(source: Self.photo, plain: false, params: Params(resizing_type: "fill"), advanced: ["sl:medium:top::18", "wd:iphone-16-pro:medium"])]
        let path = try ImgproxySigner.paths(cases, keyHex: ServeParsing.keyHex, saltHex: ServeParsing.saltHex).paths[0]
        let serve = try ServeParsing.signed().parse(path: path)
        XCTAssertNil(serve.imageRequest)
        guard case .slice(let slice) = serve.plan else { return XCTFail("\(serve.plan) is not a slice") }
        let device = try ServeParsing.device("iPhone 16 Pro")
        XCTAssertEqual(slice.device, device)
        XCTAssertEqual(
            try slice.request(screenshotSize: PixelSize(width: 1206, height: 2622)),
            ImageRequest(
                url: Self.photoURL, target: .widget(.medium, device: device), contentMode: .crop, outputFormat: .png,
                sourceRegion: PixelRect(x: 87, y: 261, width: 1032, height: 486), colorPolicy: .keep))
    }

    /// Every byte after the first "/", replaced by two other URL characters, and the path one
    /// byte shorter or longer: each is refused with a 403, as is the path signed by another key.
    func testOneChangedByteAnywhereIsForbidden() throws {
        let cases = [
            Case(source: Self.photo, plain: true, extension: "png", params: Params(resizing_type: "fill", width: 300, height: 200),
                 advanced: ["cb:7"]),
            Case(source: Self.photo, plain: false, extension: "jpg", params: Params(resizing_type: "fit", width: 300), advanced: ["q:80"]),
        ]
        let paths = try ImgproxySigner.paths(cases, keyHex: ServeParsing.keyHex, saltHex: ServeParsing.saltHex).paths
        let otherKey = try ImgproxySigner.paths(cases, keyHex: "00" + ServeParsing.keyHex.dropFirst(2), saltHex: ServeParsing.saltHex).paths
        let parser = try ServeParsing.signed()
        var refused = 0
        for (path, signedByOther) in zip(paths, otherKey) {
            XCTAssertNoThrow(try parser.parse(path: path))
            var variants = [String(path.dropLast()), path + "A", signedByOther]
            let bytes = Array(path.utf8)
            for index in bytes.indices.dropFirst() {
                for replacement in [bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A"),
                                    bytes[index] == UInt8(ascii: "-") ? UInt8(ascii: "_") : UInt8(ascii: "-")] {
                    var changed = bytes
                    changed[index] = replacement
                    variants.append(String(decoding: changed, as: UTF8.self))
                }
            }
            for variant in variants {
                let error = ServeParsing.error(variant, parser: parser)
                XCTAssertEqual(error?.httpStatus, 403, "\(variant): \(String(describing: error))")
                if case .badSignature = error { refused += 1 }
            }
        }
        XCTAssertGreaterThan(refused, 400)
    }

    func testUnsignedURLsPassOnlyWhereTheConfigurationAllowsThem() throws {
        let cases = [Case(source: Self.photo, plain: true, params: Params(resizing_type: "fit", width: 300, height: 200))]
        let unsignedPath = try ImgproxySigner.paths(cases, keyHex: nil, saltHex: nil).paths[0]
        XCTAssertTrue(unsignedPath.hasPrefix("/insecure/g:ce/rs:fit:300:200:0/plain/"), unsignedPath)
        let signedPath = try ImgproxySigner.paths(cases, keyHex: ServeParsing.keyHex, saltHex: ServeParsing.saltHex).paths[0]
        let expected = ImageRequest(url: Self.photoURL, target: .pixels(PixelSize(width: 300, height: 200)))

        // Allowed: any first segment, a signature included.
        let rest = String(unsignedPath.dropFirst("/insecure".count))
        for path in [unsignedPath, "/unsafe" + rest, "/_" + rest, signedPath] {
            XCTAssertEqual(try ServeParsing.unsigned.parse(path: path).imageRequest, expected, path)
        }
        XCTAssertEqual(ServeParsing.error("/" + rest)?.httpStatus, 404)

        // With a key: only the signature, never a placeholder or a truncated one.
        let parser = try ServeParsing.signed()
        XCTAssertEqual(try parser.parse(path: signedPath).imageRequest, expected)
        let signature = String(signedPath.dropFirst().prefix { $0 != "/" })
        XCTAssertEqual(signature.count, 43)
        let truncated = "/" + signature.prefix(11) + rest
        for path in [unsignedPath, "/unsafe" + rest, "/_" + rest, "/" + signature + "=" + rest, truncated] {
            let error = ServeParsing.error(path, parser: parser)
            XCTAssertEqual(error?.httpStatus, 403, path)
            let message = String(describing: error)
            XCTAssertFalse(message.contains(signature.prefix(11)), message)
            XCTAssertFalse(message.contains(ServeParsing.keyHex.prefix(8)), message)
        }
        XCTAssertEqual(
            ServeParsing.error(truncated, parser: parser),
            .badSignature("the signature is not a full HMAC-SHA256 (43 characters): unsigned and truncated signatures are refused"))
        XCTAssertEqual(ServeParsing.error(unsignedPath, parser: parser)?.description,
                       "forbidden: the signature is not a full HMAC-SHA256 (43 characters): unsigned and truncated signatures are refused")
    }

    /// The signature is checked before any option is read: a signed URL with an option imgcache
    /// lacks gets a 400 naming it, the same URL unsigned under a key a 403.
    func testTheSignatureIsCheckedBeforeTheOptions() throws {
        let cases = [Case(source: Self.photo, plain: false, extension: "png", params: Params(resizing_type: "fill", width: 300, height: 400, gravity: "obj"))]
        let signed = try ImgproxySigner.paths(cases, keyHex: ServeParsing.keyHex, saltHex: ServeParsing.saltHex).paths[0]
        let unsigned = try ImgproxySigner.paths(cases, keyHex: nil, saltHex: nil).paths[0]
        let parser = try ServeParsing.signed()
        XCTAssertEqual(
            ServeParsing.error(signed, parser: parser),
            .unsupportedOption(name: "g", detail: "gravity 'obj' is not supported: give ce, no, so, ea, we, noea, nowe, soea, sowe, sm or fp:X:Y"))
        XCTAssertEqual(ServeParsing.error(unsigned, parser: parser)?.httpStatus, 403)
    }
}
