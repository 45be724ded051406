import XCTest
@testable import ImgCache

final class RGBAColorTests: XCTestCase {
    func testHexColoursReadWithOrWithoutAlphaAndWriteBackAsEightDigits() {
        XCTAssertEqual(RGBAColor(hex: "ff8000"), RGBAColor(red: 255, green: 128, blue: 0))
        XCTAssertEqual(RGBAColor(hex: "#0A0b0C80"), RGBAColor(red: 10, green: 11, blue: 12, alpha: 128))
        XCTAssertEqual(RGBAColor(hex: "ff8000")?.description, "ff8000ff")
        XCTAssertEqual(RGBAColor.transparent.description, "00000000")
        for bad in ["", "#", "fff", "ff800", "ff80000", "gg0000", "ff 000", "+f8000", "ff8000ff00", "１２３４５６"] {
            XCTAssertNil(RGBAColor(hex: bad), bad)
        }
    }
}
