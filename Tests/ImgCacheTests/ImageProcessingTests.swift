import Foundation
import Synchronization
import XCTest
@testable import ImgCache

/// The processing seam: custom processors run on the resampled frames in order, see the
/// request's scale and target, change the variant's key, and are checked.
final class ImageProcessingTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-processing-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    /// Inverts red, green and blue.
    private struct Invert: ImageProcessing {
        var identifier: String { "test-invert" }

        func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
            var image = image
            for index in image.frames.indices {
                var pixels = image.frames[index].bitmap.pixels
                for offset in pixels.indices where offset % 4 != 3 { pixels[offset] = 255 - pixels[offset] }
                image.frames[index].bitmap = try Bitmap(size: image.frames[index].bitmap.size, pixels: pixels)
            }
            return image
        }
    }

    /// Adds an opaque red border `points` wide (in points: pixels = points x scale) and records
    /// the contexts it was given.
    private final class Border: ImageProcessing {
        let points: Double
        let contexts = Mutex([ImageProcessingContext]())
        init(points: Double) { self.points = points }

        var identifier: String { "test-border(\(points))" }

        func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
            contexts.withLock { $0.append(context) }
            let width = Int((points * context.scale).rounded())
            var image = image
            for index in image.frames.indices {
                let inner = image.frames[index].bitmap
                let size = PixelSize(width: inner.width + 2 * width, height: inner.height + 2 * width)
                var pixels = [UInt8](repeating: 255, count: size.area * 4)
                for offset in stride(from: 0, to: pixels.count, by: 4) { (pixels[offset + 1], pixels[offset + 2]) = (0, 0) }
                for row in 0..<inner.height {
                    let from = row * inner.width * 4
                    let to = ((row + width) * size.width + width) * 4
                    pixels.replaceSubrange(to..<to + inner.width * 4, with: inner.pixels[from..<from + inner.width * 4])
                }
                image.frames[index].bitmap = try Bitmap(size: size, pixels: pixels)
            }
            return image
        }
    }

    /// Returns the frames its closure makes of the input.
    private struct Replace: ImageProcessing {
        let identifier: String
        let frames: @Sendable ([ImageFrame]) throws -> [ImageFrame]

        func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
            DecodedImage(info: image.info, frames: try frames(image.frames))
        }
    }

    private struct Refusal: Error {}

    private let source = URL(string: "https://example.test/scene.png")!

    private func servedLoader(translucent: Bool = false) throws -> CountingLoader {
        let loader = CountingLoader()
        loader.serve(source, .init(data: try PNGEncoder.encode(TestImages.scene(width: 120, height: 80, translucent: translucent))))
        return loader
    }

    func testProcessorsRunInOrderOnTheResampledFramesAndSeeTheRequestsScale() async throws {
        let loader = try servedLoader()
        let pipeline = try loader.pipeline(root: root)
        let target = ImageTarget.points(PointSize(width: 20, height: 20), scale: 2)
        let plain = try await pipeline.image(for: ImageRequest(url: source, target: target, outputFormat: .png))
        XCTAssertEqual(plain.pixelSize, PixelSize(width: 40, height: 27))

        let border = Border(points: 1.5)
        let processed = try await pipeline.image(
            for: ImageRequest(url: source, target: target, outputFormat: .png, processors: [Invert(), border]))
        // 1.5 points at 2x: a 3-pixel border around the 40x27 resampled frame.
        XCTAssertEqual(processed.pixelSize, PixelSize(width: 46, height: 33))
        XCTAssertEqual(border.contexts.withLock { $0 }, [ImageProcessingContext(scale: 2, targetSize: PixelSize(width: 40, height: 40))])
        let expected = try border.process(
            Invert().process(plain.image, context: ImageProcessingContext()), context: ImageProcessingContext(scale: 2))
        XCTAssertEqual(processed.image.frames[0].bitmap, expected.frames[0].bitmap)
        // What was stored is what the processors made (PNG is lossless).
        let stored = try ImageDecoder.decode(.data(try processed.encodedData()), options: DecodingOptions())
        XCTAssertEqual(stored.frames[0].bitmap, expected.frames[0].bitmap)
        XCTAssertEqual(loader.loads, 1, "the original is fetched once for both variants")

        // The other order makes other pixels: the border is inverted too.
        let reversed = try await pipeline.image(
            for: ImageRequest(url: source, target: target, outputFormat: .png, processors: [border, Invert()]))
        XCTAssertEqual(Array(reversed.image.frames[0].bitmap.pixels.prefix(4)), [0, 255, 255, 255])
        XCTAssertEqual(Array(processed.image.frames[0].bitmap.pixels.prefix(4)), [255, 0, 0, 255])
    }

    func testProcessorsChangeTheVariantKeySoEachChainIsStoredApart() async throws {
        let loader = try servedLoader()
        let pipeline = try loader.pipeline(root: root)
        let target = ImageTarget.pixels(PixelSize(width: 30, height: 30))
        let plain = try await pipeline.image(for: ImageRequest(url: source, target: target))
        let inverted = try await pipeline.image(for: ImageRequest(url: source, target: target, processors: [Invert()]))
        let bordered = try await pipeline.image(
            for: ImageRequest(url: source, target: target, processors: [Invert(), Border(points: 2)]))
        XCTAssertFalse(plain.variantKey.contains(";process="))
        XCTAssertTrue(inverted.variantKey.hasSuffix(";process=test-invert"), inverted.variantKey)
        XCTAssertTrue(bordered.variantKey.hasSuffix(";process=test-invert|test-border(2.0)"), bordered.variantKey)
        let files = try [plain, inverted, bordered].map { try XCTUnwrap($0.fileURL) }
        XCTAssertEqual(Set(files).count, 3, "three variants on disk")
        XCTAssertNotEqual(try Data(contentsOf: files[0]), try Data(contentsOf: files[1]))

        // A hit of a processed variant comes from its file, not from a new render.
        let again = try await loader.pipeline(root: root).image(for: ImageRequest(url: source, target: target, processors: [Invert()]))
        XCTAssertEqual(again.cacheOutcome, .disk)
        XCTAssertEqual(again.variantKey, inverted.variantKey)
        XCTAssertEqual(loader.loads, 1)
        // Requests compare by their processors' identifiers.
        XCTAssertEqual(ImageRequest(url: source, processors: [Invert()]), ImageRequest(url: source, processors: [Invert()]))
        XCTAssertNotEqual(ImageRequest(url: source, processors: [Invert()]), ImageRequest(url: source))
    }

    func testEveryFrameOfAnAnimationIsProcessed() async throws {
        let loader = CountingLoader()
        let encoder = try GIFEncoder(size: PixelSize(width: 32, height: 32), loopCount: 0)
        for index in 0..<3 {
            try encoder.add(ImageFrame(bitmap: TestImages.scene(width: 32, height: 32, seed: UInt64(index + 1)), delayCentiseconds: 5))
        }
        let gif = URL(string: "https://example.test/anim.gif")!
        loader.serve(gif, .init(data: try encoder.finish()))
        let pipeline = try loader.pipeline(root: root)
        let response = try await pipeline.image(for: ImageRequest(url: gif, processors: [Border(points: 1)]))
        XCTAssertEqual(response.format, .gif)
        XCTAssertEqual(response.image.frames.count, 3)
        for frame in response.image.frames {
            XCTAssertEqual(frame.bitmap.size, PixelSize(width: 34, height: 34))
            XCTAssertEqual(Array(frame.bitmap.pixels.prefix(4)), [255, 0, 0, 255])
            XCTAssertEqual(frame.delayCentiseconds, 5)
        }
    }

    func testBadIdentifiersAndBadResultsAreTypedErrorsAndStoreNothing() async throws {
        let loader = try servedLoader()
        let pipeline = try loader.pipeline(root: root)
        let target = ImageTarget.pixels(PixelSize(width: 30, height: 30))
        for identifier in ["", "a;b", "a|b", "tab\there", "é", String(repeating: "x", count: 201)] {
            let request = ImageRequest(url: source, target: target, processors: [Replace(identifier: identifier) { $0 }])
            do {
                _ = try await pipeline.image(for: request)
                XCTFail("identifier \(identifier.debugDescription) was accepted")
            } catch ImgCacheError.invalidArgument(let detail) {
                XCTAssertTrue(detail.contains("processor identifier"), detail)
            }
        }
        XCTAssertEqual(loader.loads, 0, "a bad identifier is refused before the network")

        let failures: [(Replace, String)] = [
            (Replace(identifier: "empty") { _ in [] }, "returned no frame"),
            (Replace(identifier: "mixed") { frames in
                [frames[0], ImageFrame(bitmap: TestImages.scene(width: 5, height: 5))]
            }, "frames of different sizes"),
        ]
        for (processor, message) in failures {
            do {
                _ = try await pipeline.image(
                    for: ImageRequest(url: source, target: target, outputFormat: .gif, processors: [processor]))
                XCTFail("\(processor.identifier) was accepted")
            } catch ImgCacheError.invalidArgument(let detail) {
                XCTAssertTrue(detail.contains(message) && detail.contains(processor.identifier), detail)
            }
        }
        do {
            _ = try await pipeline.image(
                for: ImageRequest(url: source, target: target, processors: [Replace(identifier: "refuses") { _ in throw Refusal() }]))
            XCTFail("a throwing processor succeeded")
        } catch is Refusal {}
        // Nothing but the original was stored by the failures.
        let variants = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".gif") }
        XCTAssertEqual(variants, [])
    }
}
