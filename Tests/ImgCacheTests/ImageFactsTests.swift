import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// `ImageFacts`: BlurHash and ThumbHash against the reference packages (PyPI `blurhash` and
/// `thumbhash`, Tests/Scripts/placeholder_reference.py) on the same pixels, their pictures close
/// to the reference's on large images, the average and dominant colours, and legibility over
/// images with known bands.
final class ImageFactsTests: XCTestCase {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/placeholder_reference.py")
    private static let media = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples/media")

    /// The reference script's JSON for `arguments` after the image `bitmap` written as a PNG.
    private func reference(_ mode: String, _ bitmap: Bitmap, _ extra: [String] = []) throws -> [String: Any] {
        let path = try TestImages.pngFile(bitmap, name: "facts.png")
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let result = try ProductRunner.runTool("python3", [Self.script.path, mode, path] + extra, timeout: 600)
        if result.errors.contains("No module named") {
            throw XCTSkip("blurhash, thumbhash or Pillow is not installed (make setup installs them)")
        }
        XCTAssertEqual(result.status, 0, result.errors)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    private static func bands(width: Int, height: Int, _ colours: [RGBAColor]) -> Bitmap {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            let colour = colours[y * colours.count / height]
            for _ in 0..<width { pixels += [colour.red, colour.green, colour.blue, colour.alpha] }
        }
        return Bitmap(unchecked: PixelSize(width: width, height: height), pixels: pixels)
    }

    private static func noise(width: Int, height: Int, seed: UInt64) -> Bitmap {
        var random = SeededGenerator(seed: seed)
        let pixels = (0..<(width * height)).flatMap { _ in
            [UInt8(random.next() & 255), UInt8(random.next() & 255), UInt8(random.next() & 255), 255]
        }
        return Bitmap(unchecked: PixelSize(width: width, height: height), pixels: pixels)
    }

    func testPlaceholdersAreTheReferencesOnImagesThatNeedNoShrinking() throws {
        let photo = try ImageDecoder.decode(
            .file(path: Self.media.appendingPathComponent("harbour.jpg").path),
            options: DecodingOptions(targetSize: PixelSize(width: 100, height: 100))).frames[0].bitmap
        let portrait = try ImageDecoder.decode(
            .file(path: Self.media.appendingPathComponent("portrait.jpg").path),
            options: DecodingOptions(targetSize: PixelSize(width: 64, height: 100))).frames[0].bitmap
        let images: [(String, Bitmap)] = [
            ("photo", photo), ("portrait", portrait), ("noise", Self.noise(width: 37, height: 23, seed: 5)),
            ("scene", TestImages.scene(width: 100, height: 61)), ("tall scene", TestImages.scene(width: 9, height: 100, seed: 2)),
            ("one pixel", Self.bands(width: 1, height: 1, [RGBAColor(red: 200, green: 10, blue: 90)])),
            ("flat", Self.bands(width: 40, height: 40, [RGBAColor(red: 30, green: 120, blue: 230)])),
            ("bands", Self.bands(width: 100, height: 7, [.white, RGBAColor(red: 128, green: 0, blue: 0), .black])),
        ]
        for (name, bitmap) in images {
            let facts = try ImageFacts(of: bitmap)
            let expected = try reference("encode", bitmap)
            XCTAssertEqual(facts.blurHash, expected["blurhash"] as? String, name)
            XCTAssertEqual(Data(facts.thumbHash).base64EncodedString(), expected["thumbhash"] as? String, name)
        }
    }

    func testPlaceholdersOfLargeImagesDecodeCloseToTheReferences() throws {
        for (file, size) in [("harbour.jpg", PixelSize(width: 300, height: 200)), ("portrait.jpg", PixelSize(width: 200, height: 300))] {
            let bitmap = try ImageDecoder.decode(
                .file(path: Self.media.appendingPathComponent(file).path), options: DecodingOptions(targetSize: size)).frames[0].bitmap
            let facts = try ImageFacts(of: bitmap)
            let result = try reference("compare", bitmap, [facts.blurHash, Data(facts.thumbHash).base64EncodedString()])
            let numbers = try ["blurhash_mean", "blurhash_max", "thumbhash_mean", "thumbhash_max"].map { try XCTUnwrap(result[$0] as? Double, $0) }
            print("\(file) at \(bitmap.size): BlurHash \(facts.blurHash) (reference \(result["reference_blurhash"] ?? "")), "
                + "decoded 32x32 mean/max difference \(numbers[0])/\(numbers[1]); ThumbHash \(numbers[2])/\(numbers[3])")
            // The bounds docs/processing.md states, per channel value 0...255 of 32 x 32 decoded pictures:
            // a mean of 4 (BlurHash's 19 levels a component make a one-level step show as a
            // single pixel's larger difference, bounded by 40).
            XCTAssertLessThanOrEqual(numbers[0], 4, file)
            XCTAssertLessThanOrEqual(numbers[1], 40, file)
            XCTAssertLessThanOrEqual(numbers[2], 4, file)
            XCTAssertLessThanOrEqual(numbers[3], 40, file)
        }
    }

    func testLegibilityOverKnownBands() throws {
        // Top third white, middle grey, bottom third black: black text at the top, white at the
        // bottom, each at the full 21:1; over the whole, either colour crosses its worst band.
        for size in [PixelSize(width: 90, height: 90), PixelSize(width: 600, height: 900)] {
            let bitmap = Self.bands(width: size.width, height: size.height, [.white, RGBAColor(red: 128, green: 128, blue: 128), .black])
            let legibility = try ImageFacts(of: bitmap).legibility
            XCTAssertEqual(legibility.top, Legibility.Region(brightest: 1, darkest: 1), "\(size)")
            XCTAssertEqual(legibility.top.text, .black)
            XCTAssertEqual(legibility.top.blackContrast, 21)
            XCTAssertEqual(legibility.top.whiteContrast, 1)
            XCTAssertEqual(legibility.bottom.text, .white)
            XCTAssertEqual(legibility.bottom.whiteContrast, 21)
            XCTAssertEqual(legibility.bottom.blackContrast, 1)
            XCTAssertEqual(legibility.whole.whiteContrast, 1)
            XCTAssertEqual(legibility.whole.blackContrast, 1)
        }
        // A navy title band over a pale yellow body: the WCAG ratios of those colours.
        let navy = RGBAColor(red: 0x1A, green: 0x23, blue: 0x7E), pale = RGBAColor(red: 0xFF, green: 0xF5, blue: 0x9D)
        let legibility = try ImageFacts(of: Self.bands(width: 300, height: 300, [navy, pale, pale])).legibility
        func luminance(_ c: RGBAColor) -> Double {
            func linear(_ v: UInt8) -> Double {
                let s = Double(v) / 255
                return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(c.red) + 0.7152 * linear(c.green) + 0.0722 * linear(c.blue)
        }
        XCTAssertEqual(legibility.top.text, .white)
        XCTAssertEqual(legibility.top.whiteContrast, ((1.05 / (luminance(navy) + 0.05)) * 100).rounded() / 100)
        XCTAssertEqual(legibility.top.whiteContrast, 13.24, accuracy: 0.01)
        XCTAssertEqual(legibility.bottom.text, .black)
        XCTAssertEqual(legibility.bottom.blackContrast, (((luminance(pale) + 0.05) / 0.05) * 100).rounded() / 100)
        XCTAssertEqual(legibility.whole.text, .black)
        XCTAssertEqual(legibility.whole.whiteContrast, ((1.05 / (luminance(pale) + 0.05)) * 100).rounded() / 100)
    }

    func testAverageAndDominantColoursOfKnownAreas() throws {
        let red = RGBAColor(red: 220, green: 20, blue: 60), teal = RGBAColor(red: 0, green: 128, blue: 128)
        let cream = RGBAColor(red: 250, green: 240, blue: 210)
        // Half red, 30% teal, 20% cream, as rows of a 50 x 100 image (no shrinking).
        let bitmap = Self.bands(width: 50, height: 100, Array(repeating: red, count: 5) + Array(repeating: teal, count: 3) + [cream, cream])
        let facts = try ImageFacts(of: bitmap)
        XCTAssertEqual(facts.dominantColors, [
            DominantColors.Entry(color: red, share: 0.5), DominantColors.Entry(color: teal, share: 0.3),
            DominantColors.Entry(color: cream, share: 0.2),
        ])
        XCTAssertEqual(facts.average, RGBAColor(red: 160, green: 96, blue: 110))
        // The same areas at 1000 x 2000: shrunk to 50 x 100 first, the same answer.
        let large = try ImageFacts(of: Self.bands(width: 1000, height: 2000, Array(repeating: red, count: 5) + Array(repeating: teal, count: 3) + [cream, cream]))
        XCTAssertEqual(large.dominantColors, facts.dominantColors)
        XCTAssertEqual(large.average, facts.average)
        // Transparent pixels lend no colour: the average is the visible half's, alpha the mean.
        let half = Self.bands(width: 10, height: 10, [red, RGBAColor(red: 0, green: 255, blue: 0, alpha: 0)])
        let translucent = try ImageFacts(of: half)
        XCTAssertEqual(translucent.average, RGBAColor(red: 220, green: 20, blue: 60, alpha: 128))
        XCTAssertEqual(translucent.dominantColors, [DominantColors.Entry(color: red, share: 1)])
        XCTAssertEqual(try ImageFacts(of: Self.bands(width: 4, height: 4, [.transparent])).dominantColors, [])
    }

    func testFactsRoundTripThroughJSONWithImgproxysNames() throws {
        let facts = try ImageFacts(of: TestImages.scene(width: 160, height: 90, translucent: true))
        let data = try JSONEncoder().encode(facts)
        XCTAssertEqual(try JSONDecoder().decode(ImageFacts.self, from: data), facts)
        let fields = try facts.jsonFields()
        XCTAssertEqual(Set(fields.keys), ["average", "dominant_colors", "blurhash", "thumbhash", "legibility"])
        let average = try XCTUnwrap(fields["average"] as? [String: Int])
        XCTAssertEqual(average, ["R": Int(facts.average.red), "G": Int(facts.average.green), "B": Int(facts.average.blue), "A": Int(facts.average.alpha)])
        XCTAssertEqual(fields["blurhash"] as? String, facts.blurHash)
        XCTAssertEqual(facts.blurHash.count, 4 + 2 * 12)
        let legibility = try XCTUnwrap(fields["legibility"] as? [String: [String: Any]])
        XCTAssertEqual(Set(legibility.keys), ["whole", "top", "bottom"])
        XCTAssertNotNil(legibility["top"]?["white_contrast"] as? Double)
    }

    func testOutOfRangeArgumentsAreTypedErrors() throws {
        let bitmap = TestImages.scene(width: 20, height: 20)
        for components in [(0, 3), (4, 10), (-1, -1)] {
            XCTAssertThrowsError(try ImageFacts(of: bitmap, blurHashComponents: components)) { error in
                guard case ImgCacheError.invalidArgument = error else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(try BlurHash.encode(bitmap, componentsX: 9, componentsY: 9).count, 4 + 2 * 81)
        XCTAssertThrowsError(try ThumbHash.encode(TestImages.scene(width: 101, height: 4))) { error in
            guard case ImgCacheError.invalidArgument = error else { return XCTFail("\(error)") }
        }
    }
}
