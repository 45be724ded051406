import XCTest
@testable import ImgCache

final class ResizeGeometryTests: XCTestCase {
    private func plan(_ source: (Int, Int), _ target: (Int, Int)?, _ mode: ContentMode, upscale: Bool = false)
        -> ResizeGeometry
    {
        ResizeGeometry.plan(
            source: PixelSize(width: source.0, height: source.1),
            target: target.map { PixelSize(width: $0.0, height: $0.1) }, mode: mode, allowsUpscaling: upscale)
    }

    func testFitKeepsAspectRatioInsideTarget() {
        XCTAssertEqual(plan((6000, 4000), (1014, 474), .fit).outputSize, PixelSize(width: 711, height: 474))
        XCTAssertEqual(plan((800, 600), (510, 510), .fit).outputSize, PixelSize(width: 510, height: 383))
        XCTAssertEqual(plan((600, 800), (510, 510), .fit).outputSize, PixelSize(width: 383, height: 510))
    }

    func testFillCoversTargetWithoutCropping() {
        let geometry = plan((6000, 4000), (1014, 474), .fill)
        XCTAssertEqual(geometry.outputSize, PixelSize(width: 1014, height: 676))
        XCTAssertEqual(geometry.sourceWidth, 6000)
        XCTAssertEqual(geometry.sourceHeight, 4000)
    }

    func testCropIsExactlyTheTargetCutFromTheCentreAtWholePixels() {
        let geometry = plan((6000, 4000), (1014, 474), .crop)
        XCTAssertEqual(geometry.outputSize, PixelSize(width: 1014, height: 474))
        // Fill size 1014x676; the centred crop starts at row 101 (202 / 2) of the fill size.
        XCTAssertEqual(geometry.sourceX, 0)
        XCTAssertEqual(geometry.sourceY, 101 * 4000 / 676, accuracy: 1e-9)
        XCTAssertEqual(geometry.sourceHeight, 474 * 4000 / 676, accuracy: 1e-9)
        // An odd surplus rounds half away from zero: 3 surplus pixels -> offset 2.
        let odd = plan((103, 100), (100, 100), .crop)
        XCTAssertEqual(odd.sourceX, 2)
        XCTAssertEqual(odd.outputSize, PixelSize(width: 100, height: 100))
    }

    func testNeverUpscalesUnlessAsked() {
        XCTAssertEqual(plan((100, 50), (400, 400), .fit), .identity(PixelSize(width: 100, height: 50)))
        XCTAssertEqual(plan((100, 50), (400, 400), .fill), .identity(PixelSize(width: 100, height: 50)))
        XCTAssertEqual(plan((100, 50), (400, 400), .fit, upscale: true).outputSize, PixelSize(width: 400, height: 200))
        // Crop without upscaling keeps the target's aspect ratio at scale 1.
        let crop = plan((100, 100), (200, 50), .crop)
        XCTAssertEqual(crop.outputSize, PixelSize(width: 100, height: 25))
        XCTAssertEqual(crop.sourceY, 38) // (100 - 25) / 2 = 37.5 rounds to 38
        XCTAssertEqual(plan((100, 100), (200, 50), .crop, upscale: true).outputSize, PixelSize(width: 200, height: 50))
    }

    func testNilTargetAndTinyResultsStayAtLeastOnePixel() {
        XCTAssertEqual(plan((640, 480), nil, .fit), .identity(PixelSize(width: 640, height: 480)))
        XCTAssertEqual(plan((10000, 10), (100, 100), .fit).outputSize, PixelSize(width: 100, height: 1))
    }

    func testPixelSizeParsing() {
        XCTAssertEqual(PixelSize(parsing: "510x383"), PixelSize(width: 510, height: 383))
        XCTAssertEqual(PixelSize(parsing: "12X7"), PixelSize(width: 12, height: 7))
        XCTAssertNil(PixelSize(parsing: "0x10"))
        XCTAssertNil(PixelSize(parsing: "10x"))
        XCTAssertNil(PixelSize(parsing: "10x10x10"))
    }
}
