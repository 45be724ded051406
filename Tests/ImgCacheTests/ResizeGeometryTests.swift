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

    /// Each gravity's window, to the pixel: 300x200 cropped to 100x100 (fill size 150x100, so 50
    /// surplus columns, 2 source pixels each) and 200x300 to 100x100 (50 surplus rows).
    func testGravityPlacesTheCropWindowExactly() {
        func window(_ source: (Int, Int), _ gravity: CropGravity) -> (Double, Double) {
            let geometry = ResizeGeometry.plan(
                source: PixelSize(width: source.0, height: source.1), target: PixelSize(width: 100, height: 100),
                mode: .crop, allowsUpscaling: false, focus: gravity.point)
            XCTAssertEqual(geometry.outputSize, PixelSize(width: 100, height: 100))
            return (geometry.sourceX, geometry.sourceY)
        }
        let landscape: [(CropGravity, Double)] = [
            (.center, 50), (.west, 0), (.east, 100), (.north, 50), (.northWest, 0), (.southEast, 100),
            // Centred on 30% of 150 = 45, the window would start at 45 - 50: moved in to 0. On 60%: at
            // 90 - 50 = 40 (80 source pixels); on 80%: at 70, moved in to the last place, 50 (100).
            (.focus(x: 0.3, y: 0.9), 0), (.focus(x: 0.6, y: 0), 80), (.focus(x: 0.8, y: 0), 100), (.focus(x: 0.5, y: 0.5), 50),
        ]
        for (gravity, x) in landscape {
            XCTAssertEqual(window((300, 200), gravity).0, x, "\(gravity)")
            XCTAssertEqual(window((300, 200), gravity).1, 0, "\(gravity): no surplus rows")
        }
        let portrait: [(CropGravity, Double)] = [
            (.center, 50), (.north, 0), (.south, 100), (.northEast, 0), (.southWest, 100), (.focus(x: 0, y: 0.6), 80),
        ]
        for (gravity, y) in portrait {
            XCTAssertEqual(window((200, 300), gravity).1, y, "\(gravity)")
            XCTAssertEqual(window((200, 300), gravity).0, 0, "\(gravity)")
        }
        // Without upscaling, a crop larger than the source cuts the target's aspect out of it, placed alike.
        let small = ResizeGeometry.plan(
            source: PixelSize(width: 100, height: 100), target: PixelSize(width: 200, height: 50), mode: .crop,
            allowsUpscaling: false, focus: CropGravity.south.point)
        XCTAssertEqual(small.outputSize, PixelSize(width: 100, height: 25))
        XCTAssertEqual(small.sourceY, 75)
    }

    /// Gravity names the displayed image's sides: with EXIF orientation 6 (stored rotated a quarter
    /// turn), the displayed top is the stored left.
    func testGravityFollowsTheDisplayedOrientation() throws {
        let options = DecodingOptions(targetSize: PixelSize(width: 100, height: 100), contentMode: .crop, gravity: .north)
        // Stored 300x200, displayed 200x300: the displayed top rows are the stored left columns.
        let geometry = try options.geometry(forStoredSize: PixelSize(width: 300, height: 200), orientation: .right)
        XCTAssertEqual(geometry.sourceX, 0)
        let south = DecodingOptions(targetSize: PixelSize(width: 100, height: 100), contentMode: .crop, gravity: .south)
        XCTAssertEqual(try south.geometry(forStoredSize: PixelSize(width: 300, height: 200), orientation: .right).sourceX, 100)
        XCTAssertEqual(try south.geometry(forStoredSize: PixelSize(width: 300, height: 200), orientation: .left).sourceX, 0)
        XCTAssertThrowsError(try DecodingOptions(gravity: .focus(x: 1.5, y: 0)).validate())
        XCTAssertThrowsError(try DecodingOptions(gravity: .focus(x: .nan, y: 0)).validate())
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
