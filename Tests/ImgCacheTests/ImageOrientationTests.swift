import XCTest
@testable import ImgCache

final class ImageOrientationTests: XCTestCase {
    /// A 3x2 bitmap whose pixel (x, y) has red = 10 x + y, so positions can be read back.
    private let stored: Bitmap = {
        var pixels = [UInt8]()
        for y in 0..<2 { for x in 0..<3 { pixels += [UInt8(10 * x + y), 0, 0, 255] } }
        return Bitmap(unchecked: PixelSize(width: 3, height: 2), pixels: pixels)
    }()

    private func reds(_ bitmap: Bitmap) -> [[UInt8]] {
        (0..<bitmap.height).map { y in (0..<bitmap.width).map { x in bitmap.pixels[(y * bitmap.width + x) * 4] } }
    }

    func testEachOrientationTurnsPixelsUpright() {
        let expected: [ImageOrientation: [[UInt8]]] = [
            .up: [[0, 10, 20], [1, 11, 21]],
            .upMirrored: [[20, 10, 0], [21, 11, 1]],
            .down: [[21, 11, 1], [20, 10, 0]],
            .downMirrored: [[1, 11, 21], [0, 10, 20]],
            .leftMirrored: [[0, 1], [10, 11], [20, 21]],
            .right: [[1, 0], [11, 10], [21, 20]],
            .rightMirrored: [[21, 20], [11, 10], [1, 0]],
            .left: [[20, 21], [10, 11], [0, 1]],
        ]
        for orientation in ImageOrientation.allCases {
            let turned = stored.oriented(orientation)
            XCTAssertEqual(turned.size, orientation.swapsAxes ? stored.size.transposed : stored.size)
            XCTAssertEqual(reds(turned), expected[orientation], "\(orientation)")
        }
    }
}
