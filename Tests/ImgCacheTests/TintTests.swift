import XCTest
@testable import ImgCache

/// `Tint`'s overlays, pixel for pixel: Widget-Blur's light (white at 0.4) and dark (grey 55
/// hard-light at 0.2, soft-light at 1, source-over at 0.4) and a colour source-over, composited
/// as a canvas does with the W3C formulas.
final class TintTests: XCTestCase {
    private func tinted(_ tint: Tint, _ pixels: [[UInt8]]) throws -> [[UInt8]] {
        let bitmap = try Bitmap(size: PixelSize(width: pixels.count, height: 1), pixels: pixels.flatMap { $0 })
        let image = DecodedImage(info: ImageInfo(format: .png, sourceSize: bitmap.size), frames: [ImageFrame(bitmap: bitmap)])
        let result = try tint.process(image, context: ImageProcessingContext()).frames[0].bitmap.pixels
        return stride(from: 0, to: result.count, by: 4).map { Array(result[$0..<$0 + 4]) }
    }

    private let inputs: [[UInt8]] = [
        [100, 150, 200, 255], [0, 0, 0, 255], [255, 255, 255, 255], [30, 60, 10, 255], [100, 150, 200, 128], [100, 150, 200, 0],
    ]

    func testLightLaysWhiteAtFortyPercentOverEveryPixel() throws {
        XCTAssertEqual(try tinted(.light, inputs), [
            [162, 192, 222, 255], [102, 102, 102, 255], [255, 255, 255, 255], [120, 138, 108, 255], [188, 210, 231, 179],
            [255, 255, 255, 102],
        ])
    }

    func testDarkIsWidgetBlursThreeGreyLayersAndLeavesEveryPixelOpaque() throws {
        XCTAssertEqual(try tinted(.dark, inputs), [
            [55, 80, 110, 255], [22, 22, 22, 255], [149, 149, 149, 255], [30, 40, 24, 255], [54, 65, 79, 255], [52, 52, 52, 255],
        ])
    }

    func testAColourIsCompositedSourceOver() throws {
        let red = try XCTUnwrap(Tint(name: "FF000080"))
        XCTAssertEqual(try tinted(red, [[0, 0, 255, 255], [0, 0, 255, 64], [9, 9, 9, 0]]), [
            [128, 0, 127, 255], [204, 0, 51, 160], [255, 0, 0, 128],
        ])
        // An opaque colour covers everything.
        XCTAssertEqual(try tinted(.color(RGBAColor(red: 1, green: 2, blue: 3)), inputs), Array(repeating: [1, 2, 3, 255], count: inputs.count))
    }

    func testEveryFrameIsTintedAndNamesParse() throws {
        let frames = (0..<2).map { index in
            ImageFrame(bitmap: try! Bitmap(size: PixelSize(width: 1, height: 1), pixels: [UInt8(index * 100), 150, 200, 255]), delayCentiseconds: 4)
        }
        let image = DecodedImage(info: ImageInfo(format: .gif, sourceSize: PixelSize(width: 1, height: 1)), frames: frames)
        let result = try Tint.light.process(image, context: ImageProcessingContext())
        XCTAssertEqual(result.frames.map(\.bitmap.pixels), [[102, 192, 222, 255], [162, 192, 222, 255]])
        XCTAssertEqual(result.frames.map(\.delayCentiseconds), [4, 4])

        XCTAssertEqual(Tint(name: "light"), .light)
        XCTAssertEqual(Tint(name: "DARK"), .dark)
        XCTAssertEqual(Tint(name: "#102030"), .color(RGBAColor(red: 16, green: 32, blue: 48)))
        for bad in ["none", "", "grey", "12345", "1020304050"] { XCTAssertNil(Tint(name: bad), bad) }
        XCTAssertEqual([Tint.light, .dark, .color(RGBAColor(red: 16, green: 32, blue: 48, alpha: 128))].map(\.identifier),
                       ["tint(light)", "tint(dark)", "tint(10203080)"])
    }
}
