import Foundation
import ImgCache
import ImgCacheServerURLs
import XCTest

/// `bl:SIGMA` (imgproxy's blur, in pixels of the result whatever the dpr or widget scale) and
/// `ti:TINT` (imgcache's tint, as the CLI's `--tint`): the blur runs first, whatever the order
/// written; bad values are 400s naming the option.
final class ServeProcessingOptionTests: XCTestCase {
    private func identifiers(_ options: [String]) throws -> [String] {
        try ServeParsing.request(options).processors.map(\.identifier)
    }

    func testBlurIsInPixelsOfTheResultAndRunsBeforeTheTint() throws {
        XCTAssertEqual(try identifiers(["w:100", "h:50", "bl:2.5"]), ["blur(sigma=2.5px)"])
        XCTAssertEqual(try identifiers(["blur:3", "ti:dark"]), ["blur(sigma=3px)", "tint(dark)"])
        XCTAssertEqual(try identifiers(["tint:light", "bl:.5"]), ["blur(sigma=0.5px)", "tint(light)"])
        // imgproxy hands its sigma to libvips as it is: neither dpr nor a widget's scale scales it.
        XCTAssertEqual(try identifiers(["w:100", "dpr:2", "bl:4"]), ["blur(sigma=4px)"])
        XCTAssertEqual(try identifiers(["wd:iphone-16-pro:medium", "bl:10"]), ["blur(sigma=10px)"])
        XCTAssertEqual(try identifiers(["bl:1600"]), ["blur(sigma=1600px)"])
        XCTAssertEqual(try identifiers(["ti:FFFFFF66"]), ["tint(ffffff66)"])
        XCTAssertEqual(try identifiers(["ti:102030"]), ["tint(102030ff)"])
        // bl:0 is imgproxy's default (no blur), ti:none no tint; a later option overrides an earlier one.
        XCTAssertEqual(try identifiers(["bl:0"]), [])
        XCTAssertEqual(try identifiers(["bl:3", "bl:0.0", "ti:dark", "ti:none"]), [])
        XCTAssertEqual(try identifiers(["bl:3", "bl:5"]), ["blur(sigma=5px)"])
        XCTAssertEqual(try identifiers(["w:100"]), [])
    }

    func testASliceCarriesTheProcessors() throws {
        let serve = try ServeParsing.unsigned.parse(path: ServeParsing.path(["sl:medium:top", "bl:30", "ti:light"]))
        guard case .slice(let slice) = serve.plan else { return XCTFail("not a slice: \(serve.plan)") }
        XCTAssertEqual(slice.request.processors.map(\.identifier), ["blur(sigma=30px)", "tint(light)"])
        let request = try slice.request(screenshotSize: PixelSize(width: 1179, height: 2556))
        XCTAssertEqual(request.processors.map(\.identifier), ["blur(sigma=30px)", "tint(light)"])
    }

    func testBadValuesAreRefusedNamingTheOption() {
        let cases: [(String, ServeURLError)] = [
            ("bl:-1", .invalidOption(name: "bl", detail: "blur sigma '-1' is not a decimal number such as 2 or 2.5")),
            ("blur:abc", .invalidOption(name: "blur", detail: "blur sigma 'abc' is not a decimal number such as 2 or 2.5")),
            ("bl:1e3", .invalidOption(name: "bl", detail: "blur sigma '1e3' is not a decimal number such as 2 or 2.5")),
            ("bl:1601", .invalidOption(name: "bl", detail: "blur sigma 1601 is not above 0 and at most 1600")),
            ("bl:", .invalidOption(name: "bl", detail: "blur sigma is empty")),
            ("bl:1:2", .invalidOption(name: "bl", detail: "takes 1 argument (bl:SIGMA), not 2")),
            ("ti:grey", .invalidOption(name: "ti", detail: "tint 'grey' is not light, dark, none or a colour RRGGBB or RRGGBBAA")),
            ("tint:12345", .invalidOption(name: "tint", detail: "tint '12345' is not light, dark, none or a colour RRGGBB or RRGGBBAA")),
            ("ti:", .invalidOption(name: "ti", detail: "tint is empty")),
        ]
        for (option, expected) in cases {
            let error = ServeParsing.error(options: [option])
            XCTAssertEqual(error, expected, option)
            XCTAssertEqual(error?.httpStatus, 400, option)
        }
    }
}
