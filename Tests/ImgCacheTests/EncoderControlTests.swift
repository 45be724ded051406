import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// Progressive JPEG, chroma subsampling and PNG with a palette (`EncoderControls`): what each
/// writes, read back by imgcache and by Pillow (Tests/Scripts/encoder_facts.py), and how each
/// enters the variant's key.
final class EncoderControlTests: XCTestCase {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/encoder_facts.py")
    private let photo = TestImages.scene(width: 160, height: 120)
    private let translucent = TestImages.scene(width: 160, height: 120, translucent: true)
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-encoders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Pillow's facts about `data` and, for `rgba`, its pixels as RGBA.
    private func pillow(_ data: Data, rgba: Bool = false) throws -> (facts: [String: Any], pixels: [UInt8]) {
        let input = folder.appendingPathComponent("image-\(UUID().uuidString)")
        try data.write(to: input)
        let output = input.path + ".rgba"
        let result = try ProductRunner.runTool("python3", [Self.script.path, input.path] + (rgba ? [output] : []))
        if result.errors.contains("No module named 'PIL'") { throw XCTSkip("Pillow is not installed (make setup installs it)") }
        XCTAssertEqual(result.status, 0, result.errors)
        let facts = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        return (facts, rgba ? Array(try Data(contentsOf: URL(fileURLWithPath: output))) : [])
    }

    private func startOfFrame(_ jpeg: Data) throws -> (marker: UInt8, factors: [UInt8]) {
        try XCTUnwrap(EncodedLayout.startOfFrame(jpeg), "no start-of-frame segment")
    }

    private func pixels(_ data: Data) throws -> Bitmap {
        try ImageDecoder.decode(.data(data)).frames[0].bitmap
    }

    func testProgressiveJPEGIsSOF2WithTheSameCoefficientsAsBaseline() throws {
        let baseline = try JPEGEncoder.encode(photo, quality: 85)
        let progressive = try JPEGEncoder.encode(photo, quality: 85, progressive: true)
        XCTAssertEqual(try startOfFrame(baseline).marker, 0xC0)
        XCTAssertEqual(try startOfFrame(progressive).marker, 0xC2)
        XCTAssertNotEqual(baseline, progressive)
        // Only the order and coding of the coefficients change: both decode to the same pixels.
        XCTAssertEqual(try pixels(progressive).pixels, try pixels(baseline).pixels)
        let facts = try pillow(progressive).facts
        XCTAssertEqual(facts["progressive"] as? Bool, true)
        XCTAssertEqual(facts["sampling"] as? Int, 2)
        XCTAssertEqual(try pillow(baseline).facts["progressive"] as? Bool, false)
    }

    func testChroma444KeepsEveryChromaSampleAndSharperColourEdges() throws {
        // Red text-like strokes one pixel wide on blue: 4:2:0 smears their colour.
        var strokes = [UInt8](repeating: 0, count: 96 * 64 * 4)
        for index in 0..<(96 * 64) {
            let x = index % 96, y = index / 96
            let red = x % 4 == 0 || y % 5 == 0
            strokes[index * 4 ..< index * 4 + 4] = red ? [230, 20, 30, 255] : [20, 40, 220, 255]
        }
        let lineArt = Bitmap(unchecked: PixelSize(width: 96, height: 64), pixels: strokes)
        let subsampled = try JPEGEncoder.encode(lineArt, quality: 90)
        let full = try JPEGEncoder.encode(lineArt, quality: 90, chroma: .yuv444)
        XCTAssertEqual(try startOfFrame(subsampled).factors, [0x22, 0x11, 0x11])
        XCTAssertEqual(try startOfFrame(full).factors, [0x11, 0x11, 0x11])
        let psnr420 = PSNR.of(try pixels(subsampled).pixels, strokes)
        let psnr444 = PSNR.of(try pixels(full).pixels, strokes)
        XCTAssertGreaterThan(psnr444, psnr420 + 5, "4:4:4 \(psnr444) dB, 4:2:0 \(psnr420) dB")
        XCTAssertEqual(try pillow(full).facts["sampling"] as? Int, 0)
        XCTAssertEqual(try pillow(subsampled).facts["sampling"] as? Int, 2)
    }

    /// The av1C box's chroma_subsampling_x and _y bits: (1, 1) is 4:2:0, (0, 0) 4:4:4.
    private func av1Subsampling(_ avif: Data) throws -> (Int, Int) {
        let bytes = [UInt8](avif)
        let tag = Array("av1C".utf8)
        let start = try XCTUnwrap((0..<(bytes.count - 7)).first { Array(bytes[$0 ..< $0 + 4]) == tag })
        let flags = bytes[start + 6]
        return (Int(flags >> 3) & 1, Int(flags >> 2) & 1)
    }

    func testAVIFChromaFollowsTheControlElseTheQuality() throws {
        let cases: [(Int, ChromaSubsampling?, (Int, Int))] = [
            (63, nil, (1, 1)), (90, nil, (0, 0)), (63, .yuv444, (0, 0)), (95, .yuv420, (1, 1)),
        ]
        for (quality, chroma, expected) in cases {
            let avif = try AVIFEncoder.encode(photo, quality: quality, chroma: chroma)
            let found = try av1Subsampling(avif)
            XCTAssertTrue(found == expected, "q\(quality) \(String(describing: chroma)): \(found)")
        }
    }

    /// The PNG's IHDR bit depth and colour type, and the lengths of its PLTE and tRNS chunks (nil
    /// when absent).
    private func pngLayout(_ png: Data) -> (bitDepth: UInt8, colorType: UInt8, plte: Int?, trns: Int?) {
        let layout = EncodedLayout.png(png)
        return (layout.bitDepth, layout.colorType, layout.chunkLengths["PLTE"], layout.chunkLengths["tRNS"])
    }

    func testPalettePNGHasPLTEAndTRNSAndStaysCloseToTheRGBASource() throws {
        let png = try PNGEncoder.encode(translucent, paletteColors: 64)
        let layout = pngLayout(png)
        XCTAssertEqual(layout.colorType, 3)
        XCTAssertEqual(layout.bitDepth, 8)
        let entries = try XCTUnwrap(layout.plte) / 3
        XCTAssertLessThanOrEqual(entries, 64)
        XCTAssertGreaterThan(entries, 32)
        XCTAssertLessThanOrEqual(try XCTUnwrap(layout.trns), entries)
        let rgba = try PNGEncoder.encode(translucent)
        XCTAssertLessThan(png.count * 2, rgba.count, "palette \(png.count) bytes, RGBA \(rgba.count)")
        // Premultiplied, as a viewer composites it; this noisy scene measured 27.4 dB at 64 colours, 32.4 at 256.
        let decoded = try pixels(png).pixels
        let psnr64 = PSNR.of(PSNR.premultiplied(decoded), PSNR.premultiplied(translucent.pixels))
        let psnr256 = PSNR.of(
            PSNR.premultiplied(try pixels(try PNGEncoder.encode(translucent, paletteColors: 256)).pixels),
            PSNR.premultiplied(translucent.pixels))
        XCTAssertGreaterThan(psnr64, 26, "64 colours")
        XCTAssertGreaterThan(psnr256, psnr64 + 4, "256 colours")
        // Pillow reads the same palette and alpha.
        let (facts, pillowPixels) = try pillow(png, rgba: true)
        XCTAssertEqual(facts["mode"] as? String, "P")
        XCTAssertEqual(facts["transparency"] as? Bool, true)
        XCTAssertEqual(facts["palette_entries"] as? Int, entries)
        XCTAssertEqual(pillowPixels, decoded)
    }

    /// A bitmap of `colors` distinct RGBA colours (colour `i` has alpha 255 - i) in stripes.
    private func stripes(colors: Int) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: 30 * 20 * 4)
        for index in 0..<(30 * 20) {
            let colour = index % 30 % colors
            pixels[index * 4 ..< index * 4 + 4] = [UInt8(colour * 7), UInt8(255 - colour * 3), 90, UInt8(255 - colour)]
        }
        return Bitmap(unchecked: PixelSize(width: 30, height: 20), pixels: pixels)
    }

    func testFewColoursAreKeptExactlyAtTheFewestBitsAPixel() throws {
        for (colors, bitDepth) in [(2, 1), (3, 2), (4, 2), (5, 4), (16, 4), (17, 8), (30, 8)] {
            let bitmap = stripes(colors: colors)
            let png = try PNGEncoder.encode(bitmap, paletteColors: 256)
            let layout = pngLayout(png)
            XCTAssertEqual(layout.colorType, 3, "\(colors) colours")
            XCTAssertEqual(Int(layout.bitDepth), bitDepth, "\(colors) colours")
            XCTAssertEqual(layout.plte, colors * 3, "\(colors) colours")
            // Colour 0 is opaque: every other entry is translucent, and comes first.
            XCTAssertEqual(layout.trns, colors - 1, "\(colors) colours")
            XCTAssertEqual(try pixels(png).pixels, bitmap.pixels, "\(colors) colours: not lossless")
        }
        // Every fully transparent pixel is one entry, whatever colour it hid.
        var hidden = stripes(colors: 30).pixels
        for index in stride(from: 0, to: hidden.count, by: 8) { hidden[index + 3] = 0 }
        let png = try PNGEncoder.encode(Bitmap(unchecked: PixelSize(width: 30, height: 20), pixels: hidden), paletteColors: 256)
        XCTAssertEqual(pngLayout(png).plte, 16 * 3)
    }

    func testAnOpaqueImageGetsAPaletteWithoutTRNS() throws {
        let png = try PNGEncoder.encode(photo, paletteColors: 16)
        let layout = pngLayout(png)
        XCTAssertEqual(layout.colorType, 3)
        XCTAssertEqual(layout.bitDepth, 4)
        XCTAssertEqual(layout.plte, 16 * 3)
        XCTAssertNil(layout.trns)
        XCTAssertTrue(try pixels(png).isOpaque)
    }

    func testPaletteSizesOutsideTwoTo256AreRefused() {
        for colors in [0, 1, 257] {
            XCTAssertThrowsError(try PNGEncoder.encode(photo, paletteColors: colors)) { error in
                XCTAssertEqual(error as? ImgCacheError, .invalidArgument("a PNG palette of \(colors) colours is not in 2...256"))
            }
            XCTAssertThrowsError(try VariantEncoder(format: .png, controls: EncoderControls(paletteColors: colors)))
        }
    }

    func testVariantEncoderWritesTheControlsItsFormatUses() throws {
        func still(_ bitmap: Bitmap) -> DecodedImage {
            DecodedImage(info: ImageInfo(format: .png, sourceSize: bitmap.size), frames: [ImageFrame(bitmap: bitmap)])
        }
        let controls = EncoderControls(progressiveJPEG: true, chroma: .yuv444, paletteColors: 32)
        let encoder = try VariantEncoder(format: .automatic, controls: controls)
        let jpeg = try encoder.encode(still(photo))
        XCTAssertEqual(jpeg.format, .jpeg)
        XCTAssertEqual(try startOfFrame(jpeg.data).marker, 0xC2)
        XCTAssertEqual(try startOfFrame(jpeg.data).factors, [0x11, 0x11, 0x11])
        let png = try encoder.encode(still(translucent))
        XCTAssertEqual(png.format, .png)
        XCTAssertEqual(pngLayout(png.data).colorType, 3)
        XCTAssertLessThanOrEqual(try XCTUnwrap(pngLayout(png.data).plte), 32 * 3)
        // GIF has none of them: the same bytes as without.
        XCTAssertEqual(
            try VariantEncoder(format: .gif, controls: controls).encode(still(photo)).data,
            try VariantEncoder(format: .gif).encode(still(photo)).data)
    }

    func testEachControlTheFormatUsesChangesTheVariantKey() throws {
        let configuration = ImagePipeline.Configuration()
        func key(_ format: ImageRequest.OutputFormat, _ controls: EncoderControls) throws -> String {
            var request = ImageRequest(url: URL(string: "https://example.com/a.png")!, outputFormat: format)
            request.encoderControls = controls
            return try RequestPlan(request, configuration).variantKey
        }
        let plain = try key(.automatic, EncoderControls())
        XCTAssertFalse(plain.contains("encode="), plain)
        let controls: [EncoderControls] = [
            EncoderControls(progressiveJPEG: true), EncoderControls(chroma: .yuv444), EncoderControls(chroma: .yuv420),
            EncoderControls(paletteColors: 256), EncoderControls(paletteColors: 64),
            EncoderControls(progressiveJPEG: true, chroma: .yuv444, paletteColors: 64),
        ]
        let keys = try controls.map { try key(.automatic, $0) }
        XCTAssertEqual(Set(keys + [plain]).count, controls.count + 1, "\(keys)")
        XCTAssertTrue(keys[5].hasSuffix("format=auto;encode=progressive,chroma444,palette64"), keys[5])
        // A control the format never writes leaves the key as it was.
        XCTAssertEqual(try key(.png, EncoderControls(progressiveJPEG: true)), try key(.png, EncoderControls()))
        XCTAssertEqual(try key(.jpeg(quality: 80), EncoderControls(paletteColors: 64)), try key(.jpeg(quality: 80), EncoderControls()))
        XCTAssertEqual(try key(.gif, controls[5]), try key(.gif, EncoderControls()))
        XCTAssertTrue(try key(.avif(quality: 63), controls[5]).hasSuffix("format=avif63;encode=chroma444"))
        XCTAssertThrowsError(try key(.png, EncoderControls(paletteColors: 1)))
    }
}
