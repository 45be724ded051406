import ImgCache
import XCTest
@testable import ImgCacheServer

/// `Accept` read as RFC 9110 says for `serve --auto-format`: exact types only, `q=0` refuses, bad
/// weights void their entry, the server's order of preference wins over the client's weights.
final class FormatNegotiationTests: XCTestCase {
    private func chosen(_ accept: [String], _ formats: [ImageFormat] = [.avif, .webp]) throws -> String? {
        try FormatNegotiation(formats: formats).format(accepting: accept)?.rawValue
    }

    func testTheFirstOfferedFormatTheHeaderNamesIsChosen() throws {
        // Chromium's and Firefox's image Accept headers.
        XCTAssertEqual(try chosen(["image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"]), "avif")
        XCTAssertEqual(try chosen(["image/avif,image/webp,*/*"]), "avif")
        // Safari before AVIF.
        XCTAssertEqual(try chosen(["image/webp,image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5"]), "webp")
        XCTAssertEqual(try chosen(["image/avif,image/webp"], [.webp, .avif]), "webp")
        XCTAssertEqual(try chosen(["image/avif;q=0.1, image/webp;q=1"]), "avif", "the server's order, not the client's weights")
        XCTAssertEqual(try chosen(["IMAGE/AVIF"]), "avif")
        XCTAssertEqual(try chosen(["text/html", "image/webp"]), "webp", "every Accept field counts")
        XCTAssertEqual(try chosen([" image/avif ; q=0.5 ; level=1 "]), "avif")
        XCTAssertEqual(try chosen(["image/avif"], [.webp]), nil)
    }

    func testWildcardsRefusalsAndBadWeightsNameNothing() throws {
        XCTAssertNil(try chosen([]))
        XCTAssertNil(try chosen(["image/*,*/*"]))
        XCTAssertNil(try chosen(["image/avif;q=0, image/webp;q=0.000"]))
        XCTAssertEqual(try chosen(["image/avif;q=0, image/webp"]), "webp")
        XCTAssertEqual(try chosen(["image/webp, image/avif;q=0.5, image/avif;q=0"]), "webp", "a 0 for the type refuses it")
        for bad in ["q=2", "q=1.5", "q=0.0001", "q=-1", "q=abc", "q=", "q=.5"] {
            XCTAssertEqual(try chosen(["image/avif;\(bad), image/webp"]), "webp", bad)
        }
        XCTAssertEqual(try chosen(["image/avif;q=1.000"]), "avif")
        XCTAssertNil(try chosen(["avif, webp, image, /avif, image/avif/x"]))
        XCTAssertNil(try chosen(["image/avif"], []), "nothing negotiated")
    }

    func testOnlyAVIFAndWebPOnceEachAreNegotiated() {
        XCTAssertThrowsError(try FormatNegotiation(formats: [.avif, .jpeg])) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("jpeg is not negotiated: avif and webp are"))
        }
        XCTAssertThrowsError(try FormatNegotiation(formats: [.webp, .webp])) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("a negotiated format is given twice in webp,webp"))
        }
    }

    func testAnAutomaticRequestTakesTheFormatAtItsQualityOthersStayAsTheyAre() {
        let url = URL(string: "https://example.com/a.jpg")!
        let automatic = ImageRequest(url: url)
        XCTAssertEqual(FormatNegotiation.request(automatic, in: .avif).outputFormat, .avif(quality: 63))
        XCTAssertEqual(FormatNegotiation.request(automatic, in: .webp).outputFormat, .webp(quality: 85))
        let withQuality = ImageRequest(url: url, quality: 40)
        let avif = FormatNegotiation.request(withQuality, in: .avif)
        XCTAssertEqual(avif.outputFormat, .avif(quality: 40))
        XCTAssertNil(avif.quality)
        let png = ImageRequest(url: url, outputFormat: .png)
        XCTAssertEqual(FormatNegotiation.request(png, in: .avif), png)
    }
}
