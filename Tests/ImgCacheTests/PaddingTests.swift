import Foundation
import XCTest
@testable import ImgCache

/// `.pad`: a fit extended to exactly the target, placed by gravity, filled with the background;
/// the background composited under translucent pixels; frames kept by the budget at the target size.
final class PaddingTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-padding-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func image(_ bitmap: Bitmap) -> DecodedImage {
        DecodedImage(info: ImageInfo(format: .png, sourceSize: bitmap.size), frames: [ImageFrame(bitmap: bitmap)])
    }

    /// The pixel at `x`, `y`.
    private func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        Array(bitmap.pixels[(y * bitmap.width + x) * 4..<(y * bitmap.width + x) * 4 + 4])
    }

    func testPaddingPlacesTheImageByGravityExactlyAndFillsTheRest() throws {
        let inner = TestImages.scene(width: 6, height: 3)
        let fill = RGBAColor(red: 1, green: 2, blue: 3, alpha: 4)
        // (gravity, left, top) in a 10x8 canvas: the free 4x5 pixels shared by the gravity's point, rounded.
        let cases: [(CropGravity, Int, Int)] = [
            (.center, 2, 3), (.north, 2, 0), (.south, 2, 5), (.east, 4, 3), (.west, 0, 3), (.northEast, 4, 0),
            (.northWest, 0, 0), (.southEast, 4, 5), (.southWest, 0, 5), (.focus(x: 0.25, y: 0.1), 1, 1),
        ]
        for (gravity, left, top) in cases {
            let padding = Padding(size: PixelSize(width: 10, height: 8), gravity: gravity, fill: fill)
            let output = try padding.process(image(inner), context: ImageProcessingContext()).frames[0].bitmap
            XCTAssertEqual(output.size, PixelSize(width: 10, height: 8))
            for y in 0..<8 {
                for x in 0..<10 {
                    let inside = (left..<left + 6).contains(x) && (top..<top + 3).contains(y)
                    XCTAssertEqual(pixel(output, x, y), inside ? pixel(inner, x - left, y - top) : [1, 2, 3, 4], "\(gravity) \(x),\(y)")
                }
            }
        }
        // An axis already as large is kept: nothing is cropped.
        let wide = try Padding(size: PixelSize(width: 4, height: 5)).process(image(inner), context: ImageProcessingContext())
        XCTAssertEqual(wide.frames[0].bitmap.size, PixelSize(width: 6, height: 5))
        XCTAssertEqual(pixel(wide.frames[0].bitmap, 0, 0), [0, 0, 0, 0])
        XCTAssertEqual(pixel(wide.frames[0].bitmap, 0, 1), pixel(inner, 0, 0))
        XCTAssertEqual(Padding(size: PixelSize(width: 10, height: 8), gravity: .focus(x: 0.25, y: 0.1), fill: fill).identifier,
                       "pad(10x8,focus:0.25,0.1,01020304)")
        XCTAssertThrowsError(try Padding(size: PixelSize(width: 0, height: 8)).process(image(inner), context: ImageProcessingContext()))
    }

    func testTheBackgroundIsCompositedUnderTranslucentPixels() throws {
        let pixels: [UInt8] = [200, 100, 50, 128, 10, 20, 30, 255, 99, 99, 99, 0, 0, 0, 0, 0]
        let input = try Bitmap(size: PixelSize(width: 4, height: 1), pixels: pixels)
        let blue = try BackgroundFill(color: RGBAColor(red: 0, green: 0, blue: 255))
            .process(image(input), context: ImageProcessingContext()).frames[0].bitmap
        // 128/255 of the pixel over 127/255 of blue; opaque unchanged; transparent is the background.
        XCTAssertEqual(blue.pixels, [100, 50, 152, 255, 10, 20, 30, 255, 0, 0, 255, 255, 0, 0, 255, 255])
        let halfWhite = try BackgroundFill(color: RGBAColor(red: 255, green: 255, blue: 255, alpha: 128))
            .process(image(input), context: ImageProcessingContext()).frames[0].bitmap
        // Over a translucent colour the result stays translucent: alpha 128 + 128 x 127/255 = 192.
        XCTAssertEqual(halfWhite.pixels, [218, 152, 118, 192, 10, 20, 30, 255, 255, 255, 255, 128, 255, 255, 255, 128])
        XCTAssertEqual(BackgroundFill(color: .white).identifier, "background(ffffffff)")
    }

    func testAPaddedVariantHasTheTargetsPixelsAndItsOwnKey() async throws {
        let loader = CountingLoader()
        let source = URL(string: "https://example.test/wide.png")!
        let scene = TestImages.scene(width: 300, height: 200)
        loader.serve(source, .init(data: try PNGEncoder.encode(scene)))
        let pipeline = try loader.pipeline(root: root)
        let target = ImageTarget.pixels(PixelSize(width: 100, height: 100))
        let fitted = try await pipeline.image(for: ImageRequest(url: source, target: target, outputFormat: .png))
        XCTAssertEqual(fitted.pixelSize, PixelSize(width: 100, height: 67))

        // Transparent padding: the automatic format keeps the alpha in PNG.
        let padded = try await pipeline.image(for: ImageRequest(url: source, target: target, contentMode: .pad))
        XCTAssertEqual(padded.pixelSize, PixelSize(width: 100, height: 100))
        XCTAssertEqual(padded.format, .png)
        let bitmap = padded.image.frames[0].bitmap
        let stored = try ImageDecoder.decode(.data(try padded.encodedData()), options: DecodingOptions()).frames[0].bitmap
        XCTAssertEqual(stored, bitmap)
        // 33 rows of padding: 17 above (16.5 rounded away from zero), 16 below.
        let rowBytes = 100 * 4
        XCTAssertEqual(Array(bitmap.pixels[0..<17 * rowBytes]), [UInt8](repeating: 0, count: 17 * rowBytes))
        XCTAssertEqual(Array(bitmap.pixels[17 * rowBytes..<84 * rowBytes]), fitted.image.frames[0].bitmap.pixels)
        XCTAssertEqual(Array(bitmap.pixels[(84 * rowBytes)...]), [UInt8](repeating: 0, count: 16 * rowBytes))
        XCTAssertTrue(padded.variantKey.contains(";mode=pad;"), padded.variantKey)

        // An opaque background at the bottom: opaque, so stored as JPEG; gravity and colour in the key.
        let black = try await pipeline.image(
            for: ImageRequest(url: source, target: target, contentMode: .pad, gravity: .south, background: .black))
        XCTAssertEqual(black.format, .jpeg)
        XCTAssertEqual(black.pixelSize, PixelSize(width: 100, height: 100))
        XCTAssertTrue(black.variantKey.hasSuffix(";gravity=south;background=000000ff"), black.variantKey)
        XCTAssertEqual(pixel(black.image.frames[0].bitmap, 50, 10), [0, 0, 0, 255])
        XCTAssertEqual(pixel(black.image.frames[0].bitmap, 50, 40), pixel(fitted.image.frames[0].bitmap, 50, 7))
        XCTAssertEqual(Set([fitted, padded, black].compactMap(\.fileURL)).count, 3)
        XCTAssertEqual(loader.loads, 1)
    }

    func testAPaddedAnimationKeepsTheFramesItsBudgetAllowsAtTheTargetSize() async throws {
        let loader = CountingLoader()
        let encoder = try GIFEncoder(size: PixelSize(width: 40, height: 20), loopCount: 0)
        for index in 0..<10 {
            try encoder.add(ImageFrame(bitmap: TestImages.scene(width: 40, height: 20, seed: UInt64(index + 1)), delayCentiseconds: 5))
        }
        let gif = URL(string: "https://example.test/anim.gif")!
        loader.serve(gif, .init(data: try encoder.finish()))
        let pipeline = try loader.pipeline(root: root)
        // 40x40 frames take 6,400 bytes: a budget of 20,000 keeps 3 of them (the 40x20 fits would be 6).
        let response = try await pipeline.image(
            for: ImageRequest(url: gif, target: .pixels(PixelSize(width: 40, height: 40)), contentMode: .pad, frameBudgetBytes: 20_000))
        XCTAssertEqual(response.format, .gif)
        XCTAssertEqual(response.image.frames.count, 3)
        XCTAssertEqual(response.image.frames.map(\.bitmap.size), Array(repeating: PixelSize(width: 40, height: 40), count: 3))
        XCTAssertEqual(pixel(response.image.frames[2].bitmap, 0, 0), [0, 0, 0, 0])
        XCTAssertEqual(pixel(response.image.frames[2].bitmap, 0, 10)[3], 255)
    }
}
