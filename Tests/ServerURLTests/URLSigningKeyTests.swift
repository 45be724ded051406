import Foundation
import ImgCache
import ImgCacheServerURLs
import XCTest

final class URLSigningKeyTests: XCTestCase {
    /// RFC 4231 test case 2 (key "Jefe", "what do ya want for nothing?"), the salt being the
    /// message's first words and the path the rest.
    func testTheSignatureIsBase64URLOfHMACSHA256OfTheSaltAndThePath() throws {
        let key = try URLSigningKey(key: Array("Jefe".utf8), salt: Array("what do ya ".utf8))
        XCTAssertEqual(key.signature(forPath: "want for nothing?"), "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM")
    }

    func testASignatureMadeHereVerifies() throws {
        let key = try ServeParsing.signingKey()
        let path = "/rs:fill:300:200/plain/https%3A%2F%2Fimages.example.com%2Fa.jpg@png"
        let signature = key.signature(forPath: path)
        XCTAssertEqual(signature.count, 43)
        let serve = try ServeParsing.signed().parse(path: "/" + signature + path)
        XCTAssertEqual(serve.imageRequest, ImageRequest(
            url: URL(string: "https://images.example.com/a.jpg")!, target: .pixels(PixelSize(width: 300, height: 200)),
            contentMode: .crop, outputFormat: .png))
    }

    func testAnEmptyKeyOrSaltIsRefused() {
        for (key, salt) in [([UInt8](), [UInt8(1)]), ([1], []), ([], [])] {
            XCTAssertThrowsError(try URLSigningKey(key: key, salt: salt)) { error in
                XCTAssertEqual(error as? ImgCacheError, .invalidArgument("the URL signing key and salt must both be at least one byte"))
            }
        }
    }

    func testNeitherPrintingNorDumpingShowsTheBytes() throws {
        let key = try ServeParsing.signingKey()
        var dumped = ""
        dump(key, to: &dumped)
        let configuration = ServeURLConfiguration(signing: .required(key))
        var dumpedConfiguration = ""
        dump(configuration, to: &dumpedConfiguration)
        for text in ["\(key)", String(reflecting: key), dumped, "\(configuration)", dumpedConfiguration] {
            XCTAssertFalse(text.contains("148"), text)  // 0x94, the key's first byte
            XCTAssertFalse(text.contains("82"), text)  // 0x52, the salt's first byte
            XCTAssertFalse(text.lowercased().contains("943b"), text)
        }
        XCTAssertEqual("\(key)", "URLSigningKey(32-byte key, 32-byte salt)")
    }
}
