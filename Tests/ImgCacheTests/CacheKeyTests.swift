import XCTest
import ImgCache

final class CacheKeyTests: XCTestCase {
    func testOriginalNamesAreMD5HexPlusTheURLPathExtension() {
        XCTAssertEqual(
            CacheKey.fileName(forOriginal: "https://example.com/photos/cat.gif"), "4c8dfa2c9e390aadec8f32471a803ea8.gif")
        XCTAssertEqual(
            CacheKey.fileName(forOriginal: "https://example.com/photos/cat.gif?w=200"),
            "4b917c5c9e6a2783d116f549e4a7b162.gif")
        XCTAssertEqual(CacheKey.fileName(forOriginal: "https://example.com/image"), "eb127595af6b7f91004c22ea425a893c")
    }

    func testVariantNamesTakeTheOutputFormatsExtension() {
        let key = "https://example.com/photos/cat.gif|fit 510x510 @2x"
        let hashed = CacheKey.hashedName(for: key)
        XCTAssertEqual(CacheKey.fileName(forVariant: key, format: .png), hashed + ".png")
        XCTAssertEqual(CacheKey.fileName(forVariant: key, format: .jpeg), hashed + ".jpg")
        XCTAssertEqual(CacheKey.fileName(forVariant: key, format: .gif), hashed + ".gif")
    }

    func testHashIsOfTheKeysUTF8Bytes() {
        // md5 of the UTF-8 bytes of "é" (C3 A9) and of the empty string.
        XCTAssertEqual(CacheKey.hashedName(for: "\u{E9}"), "66ddcd97cfdeabb2f6fb8a999b4bc76f")
        XCTAssertEqual(CacheKey.hashedName(for: ""), "d41d8cd98f00b204e9800998ecf8427e")
    }

    func testExtensionIgnoresQueryAndFragment() {
        XCTAssertEqual(CacheKey.urlPathExtension("https://example.com/a.png?x=1.gif"), "png")
        XCTAssertEqual(CacheKey.urlPathExtension("https://example.com/a.png#frame.gif"), "png")
        XCTAssertEqual(CacheKey.urlPathExtension("https://example.com/a.png?x#y.gif"), "png")
        XCTAssertNil(CacheKey.urlPathExtension("https://example.com/a?name=b.png"))
    }

    func testExtensionKeepsCaseAndComesFromTheLastSegmentOnly() {
        XCTAssertEqual(CacheKey.urlPathExtension("https://example.com/IMG_1.JPG"), "JPG")
        XCTAssertEqual(CacheKey.urlPathExtension("https://example.com/a.tar.gz"), "gz")
        XCTAssertNil(CacheKey.urlPathExtension("https://example.com/photos.v2/cat"))
        XCTAssertNil(CacheKey.urlPathExtension("https://example.com/photos/"))
    }

    func testHostAndDotFilesGiveNoExtension() {
        XCTAssertNil(CacheKey.urlPathExtension("https://example.com"))
        XCTAssertNil(CacheKey.urlPathExtension("https://example.com?q=a.png"))
        XCTAssertNil(CacheKey.urlPathExtension("https://example.com/.hidden"))
        XCTAssertNil(CacheKey.urlPathExtension("https://example.com/trailing."))
    }

    func testColonsAndNULAreRemovedFromTheExtension() {
        XCTAssertEqual(CacheKey.urlPathExtension("https://example.com/a.p:n\u{0}g"), "png")
        XCTAssertNil(CacheKey.urlPathExtension("https://example.com/a.::"))
    }

    func testExtensionsLongerThan222BytesAreDropped() {
        let kept = String(repeating: "x", count: 222)
        let dropped = String(repeating: "x", count: 223)
        XCTAssertEqual(CacheKey.urlPathExtension("https://example.com/a." + kept), kept)
        XCTAssertNil(CacheKey.urlPathExtension("https://example.com/a." + dropped))
        XCTAssertEqual(CacheKey.fileName(forOriginal: "https://example.com/a." + kept).utf8.count, 255)
        XCTAssertEqual(CacheKey.fileName(forOriginal: "https://example.com/a." + dropped).count, 32)
    }

    func testKeysWithoutSchemeAreTakenAsPaths() {
        XCTAssertEqual(CacheKey.urlPathExtension("/var/images/cat.webp"), "webp")
        XCTAssertEqual(CacheKey.urlPathExtension("cat.gif"), "gif")
    }
}
