import Foundation
import ImgCache
import ImgCacheServerURLs
import XCTest

/// Presets (`pr:`, `default`, presets-only URLs, their definitions) and expiring URLs (`exp:`).
final class ServePresetTests: XCTestCase {
    private let url = ServeParsing.sourceURL

    private func parser(_ lines: [String], onlyPresets: Bool = false) throws -> ServeURLParser {
        ServeURLParser(configuration: ServeURLConfiguration(
            signing: .unsigned, presets: try ServePresets(lines: lines), onlyPresets: onlyPresets))
    }

    private func request(_ parser: ServeURLParser, _ options: [String]) throws -> ImageRequest? {
        try parser.parse(path: ServeParsing.path(options)).imageRequest
    }

    private func size(_ width: Int, _ height: Int) -> ImageTarget { .pixels(PixelSize(width: width, height: height)) }

    func testPresetsExpandInPlaceAfterTheDefaultPreset() throws {
        let parser = try parser([
            "# widgets", "", "  default = q:60/w:100 ", "thumb=rs:fill:50:50", "sharp=preset:thumb/f:png", "wide=w:300/h:100",
        ])
        // The default preset alone (one side: the other up to the limit), then under the URL's own options, which override it.
        XCTAssertEqual(try request(parser, []), ImageRequest(url: url, target: size(100, 65_535), quality: 60))
        XCTAssertEqual(try request(parser, ["w:200", "h:20"]), ImageRequest(url: url, target: size(200, 20), quality: 60))
        XCTAssertEqual(try request(parser, ["pr:thumb"]), ImageRequest(url: url, target: size(50, 50), contentMode: .crop, quality: 60))
        // A preset naming a preset, several at once, and options after a preset override it.
        XCTAssertEqual(try request(parser, ["preset:sharp"]),
                       ImageRequest(url: url, target: size(50, 50), contentMode: .crop, outputFormat: .png))
        XCTAssertEqual(try request(parser, ["pr:wide:thumb"]), ImageRequest(url: url, target: size(50, 50), contentMode: .crop, quality: 60))
        XCTAssertEqual(try request(parser, ["pr:thumb", "rt:fit", "q:90"]), ImageRequest(url: url, target: size(50, 50), quality: 90))
        // Naming the default preset again is no loop.
        XCTAssertEqual(try request(parser, ["w:7", "pr:default"]), ImageRequest(url: url, target: size(100, 65_535), quality: 60))
    }

    func testWidgetPresetsChangeTheRequestAndSoTheVariant() throws {
        let device = try ServeParsing.device("iPhone 16 Pro")
        let medium = try parser(["widget=wd:iphone-16-pro:medium/f:png"])
        let large = try parser(["widget=wd:iphone-16-pro:large/f:png"])
        let path = ServeParsing.path(["pr:widget"])
        XCTAssertEqual(try medium.parse(path: path).imageRequest,
                       ImageRequest(url: url, target: .widget(.medium, device: device), contentMode: .crop, outputFormat: .png))
        XCTAssertEqual(try large.parse(path: path).imageRequest,
                       ImageRequest(url: url, target: .widget(.large, device: device), contentMode: .crop, outputFormat: .png))
        // The same options written out make the same request, so the same variant.
        XCTAssertEqual(try medium.parse(path: path), try medium.parse(path: ServeParsing.path(["wd:iphone-16-pro:medium", "f:png"])))
    }

    func testAPresetNamedInsideItsOwnExpansionIsSkippedAsImgproxyDoes() throws {
        let parser = try parser(["a=w:10/pr:b", "b=h:10/preset:c", "c=pr:a/q:50", "self=pr:self/w:3"])
        XCTAssertEqual(try request(parser, ["pr:a"]), ImageRequest(url: url, target: size(10, 10), quality: 50))
        XCTAssertEqual(try request(parser, ["pr:c"]), ImageRequest(url: url, target: size(10, 10), quality: 50))
        XCTAssertEqual(try request(parser, ["preset:self"]), ImageRequest(url: url, target: size(3, 65_535)))
        // Named twice side by side is no loop: both expand.
        XCTAssertEqual(try request(parser, ["pr:self:self", "h:4"]), ImageRequest(url: url, target: size(3, 4)))
    }

    func testUnknownPresetsAreRefusedByName() throws {
        let parser = try parser(["x=w:1"])
        let cases: [([String], ServeURLError)] = [
            (["pr:nope"], .invalidOption(name: "pr", detail: "unknown preset 'nope'")),
            (["pr:x:"], .invalidOption(name: "pr", detail: "a preset's name is empty")),
            (["pr:x", "w:abc"], .invalidOption(name: "w", detail: "width 'abc' is not a whole number from 0 to 65535")),
        ]
        for (options, expected) in cases {
            let error = ServeParsing.error(ServeParsing.path(options), parser: parser)
            XCTAssertEqual(error, expected, "\(options)")
            XCTAssertEqual(error?.httpStatus, 400)
        }
        // Without presets, any name is unknown.
        XCTAssertEqual(ServeParsing.error(options: ["pr:thumb"]), .invalidOption(name: "pr", detail: "unknown preset 'thumb'"))
    }

    func testPresetsThatMultiplyAreCappedAtTheOptionLimit() throws {
        let eight = (0..<8).map { _ in "" }
        let parser = try parser([
            "one=w:1", "eight=pr" + eight.map { _ in ":one" }.joined(), "many=pr" + eight.map { _ in ":eight" }.joined(),
            "more=pr" + eight.map { _ in ":many" }.joined(), "most=pr:more:more:one",
        ])
        XCTAssertNoThrow(try request(parser, ["pr:more"]))  // 512 options
        XCTAssertEqual(ServeParsing.error(ServeParsing.path(["pr:most"]), parser: parser),
                       .invalidOption(name: "pr", detail: "the presets expand to over 1024 options"))
    }

    func testOnlyPresetsReadsTheFirstSegmentAsPresetNames() throws {
        let parser = try parser(["default=q:50", "thumb=rs:fill:50:50", "png=f:png"], onlyPresets: true)
        XCTAssertEqual(try parser.parse(path: "/insecure/thumb:png/" + ServeParsing.encodedSource).imageRequest,
                       ImageRequest(url: url, target: size(50, 50), contentMode: .crop, outputFormat: .png))
        XCTAssertEqual(try parser.parse(path: "/insecure/thumb/plain/" + ServeParsing.source + "@webp").imageRequest,
                       ImageRequest(url: url, target: size(50, 50), contentMode: .crop, outputFormat: .webp(quality: 50)))
        // Options are preset names there.
        XCTAssertEqual(ServeParsing.error("/insecure/w:10/" + ServeParsing.encodedSource, parser: parser),
                       .invalidOption(name: "preset", detail: "unknown preset 'w'"))
        let optionAfter = ServeParsing.error("/insecure/thumb/rs:fit:10:10/" + ServeParsing.encodedSource, parser: parser)
        guard case .invalidSource? = optionAfter else { return XCTFail("\(String(describing: optionAfter))") }
    }

    func testDefinitionsAreCheckedWhenRead() {
        let cases: [([String], String)] = [
            (["thumb"], "preset 'thumb': a preset is NAME=OPTIONS, with one '='"),
            (["a=b=c"], "preset 'a=b=c': a preset is NAME=OPTIONS, with one '='"),
            (["=w:10"], "preset '=w:10': the name and the options must not be empty"),
            (["thumb="], "preset 'thumb=': the name and the options must not be empty"),
            (["th:umb=w:10"], "preset 'th:umb=w:10': a preset's name is printable ASCII without ':', '/' or '='"),
            (["thumb=w:10", "thumb=w:20"], "preset 'thumb=w:20': preset 'thumb' is defined twice"),
            (["thumb=w:10/plain"], "preset 'thumb=w:10/plain': 'plain' is no option (NAME:ARGUMENTS)"),
            (["thumb=zz:1"], "preset 'thumb=zz:1': unknown option 'zz'"),
            (["thumb=w:-1"], "preset 'thumb=w:-1': option 'w': width '-1' is not a whole number from 0 to 65535"),
            (["thumb=pr:nope"], "preset 'thumb' names preset 'nope', which is not defined"),
        ]
        for (lines, message) in cases {
            XCTAssertThrowsError(try ServePresets(lines: lines), "\(lines)") { error in
                XCTAssertEqual(error as? ImgCacheError, .invalidArgument(message))
            }
        }
        XCTAssertEqual(try ServePresets(lines: ["# only a comment", " ", "b=w:1", "a=pr:b"]).names, ["a", "b"])
    }

    func testExpiringURLsCarryTheirTimeAndShortenMaxAge() throws {
        let served = try ServeParsing.unsigned.parse(path: ServeParsing.path(["w:10", "exp:1700000000"]))
        XCTAssertEqual(served.expires, 1_700_000_000)
        // Expiry is not an option of the image: the request is the one without it.
        XCTAssertEqual(served.imageRequest, try ServeParsing.request(["w:10"]))
        let year = 31_536_000
        func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
        XCTAssertEqual(try served.maxAge(ttl: year, now: at(1_699_999_000)), 1000)
        XCTAssertEqual(try served.maxAge(ttl: year, now: at(1_699_999_999.25)), 0)
        XCTAssertEqual(try served.maxAge(ttl: 60, now: at(1_699_999_000)), 60)
        // In its own second the URL still answers (imgproxy compares whole seconds), after it not.
        XCTAssertEqual(try served.maxAge(ttl: year, now: at(1_700_000_000.9)), 0)
        XCTAssertThrowsError(try served.maxAge(ttl: year, now: at(1_700_000_001))) { error in
            XCTAssertEqual(error as? ServeURLError, .expired(at: 1_700_000_000))
            XCTAssertEqual((error as? ServeURLError)?.httpStatus, 404)
            XCTAssertEqual("\(error)", "Expired URL: its exp:1700000000 has passed")
        }
        // exp:0 is imgproxy's "never"; a later exp overrides an earlier one; presets may hold one.
        XCTAssertNil(try ServeParsing.unsigned.parse(path: ServeParsing.path(["exp:0"])).expires)
        XCTAssertEqual(try ServeParsing.unsigned.parse(path: ServeParsing.path(["exp:5", "expires:9"])).expires, 9)
        XCTAssertEqual(try parser(["day=exp:86400"]).parse(path: ServeParsing.path(["pr:day"])).expires, 86_400)
        XCTAssertEqual(try ServeParsing.unsigned.parse(path: ServeParsing.path(["w:10"])).maxAge(ttl: year, now: at(0)), year)
        XCTAssertEqual(ServeParsing.error(options: ["exp:-1"]),
                       .invalidOption(name: "exp", detail: "expiry time '-1' is not a whole number from 0 to 253402300799"))
        XCTAssertEqual(ServeParsing.error(options: ["exp:1:2"]), .invalidOption(name: "exp", detail: "takes 1 argument (exp:UNIX_TIME), not 2"))
    }
}
