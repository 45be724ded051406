import CJPEG
import Foundation
import XCTest
@testable import ImgCache

/// libjpeg-turbo's own test images against the reference decodes its NOTES.md lists, re-created
/// through `JPEGDecoder.Settings` with what the djpeg 2.1.5 switches set:
/// `-dct int -fast` ends with JDCT_IFAST and no fancy upsampling (`-fast` comes last and sets both);
/// `-dct int -nosmooth -scale 1/N` is JDCT_ISLOW, no fancy upsampling, scale_denom N.
final class LibjpegTurboJPEGConformanceTests: XCTestCase {
    private static let djpegFast = JPEGDecoder.Settings(dctMethod: JDCT_IFAST, fancyUpsampling: false)

    func testDCTScaledDecodesEqualDjpegReferencesBitForBit() throws {
        let folder = try Corpus.folder("libjpeg-turbo")
        let original = folder.appendingPathComponent("current/testorig.jpg")
        for denominator in [2, 4, 8] {
            let settings = JPEGDecoder.Settings(dctMethod: JDCT_ISLOW, fancyUpsampling: false,
                                                fixedScaleDenominator: denominator)
            let decoded = try JPEGDecoding.bitmap(original, settings: settings)
            let reference = try PNM.read(folder.appendingPathComponent("historical-2011/testimgint1_\(denominator).ppm"))
            XCTAssertEqual(decoded.size, reference.size, "1/\(denominator)")
            XCTAssertTrue(decoded.pixels == reference.pixels, "1/\(denominator) decode differs from djpeg")
        }
        Corpus.report("libjpeg-turbo scaled", ["bit-exact": 3])
    }

    func testFullSizeHuffmanAndArithmeticDecodesEqualDjpegReferencesBitForBit() throws {
        let folder = try Corpus.folder("libjpeg-turbo")
        let cases = [("current/testorig.jpg", "historical-2011/testimgint.ppm"),
                     ("current/testimgari.jpg", "historical-2011/testimgari.ppm")]
        for (file, referenceFile) in cases {
            let decoded = try JPEGDecoding.bitmap(folder.appendingPathComponent(file), settings: Self.djpegFast)
            let reference = try PNM.read(folder.appendingPathComponent(referenceFile))
            XCTAssertEqual(decoded.size, PixelSize(width: 227, height: 149), file)
            XCTAssertTrue(decoded.pixels == reference.pixels, "\(file) differs from \(referenceFile)")
        }
        Corpus.report("libjpeg-turbo full size", ["bit-exact": cases.count])
    }

    func testProgressiveArithmeticAndBaselineTranscodesDecodeIdentically() throws {
        let folder = try Corpus.folder("libjpeg-turbo")
        let files = ["current/testimgint.jpg", "historical-2011/testimgp.jpg", "current/testimgari.jpg"]
            .map { folder.appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        XCTAssertEqual(files.count, 3)
        for settings in [JPEGDecoder.Settings(), Self.djpegFast] {
            let decodes = try files.map { try JPEGDecoding.bitmap($0, settings: settings) }
            for (file, decoded) in zip(files, decodes).dropFirst() {
                XCTAssertTrue(decoded == decodes[0], "\(file.lastPathComponent) differs from testimgint.jpg")
            }
        }
        Corpus.report("libjpeg-turbo transcodes", ["identical": files.count])
    }

    func testTwelveBitFilesFailWithTypedError() throws {
        let folder = try Corpus.folder("libjpeg-turbo")
        let files = ["current/monkey12.jpg", "historical-12bit/testorig12.jpg"]
        for file in files {
            XCTAssertEqual(JPEGDecoding.failure(folder.appendingPathComponent(file)), "Unsupported JPEG data precision 12", file)
        }
        Corpus.report("libjpeg-turbo 12-bit", ["refused": files.count])
    }
}

/// jpeg-decoder's reftest (ImageMagick renders; the crate accepts |diff| <= 3), crashtest and icc files.
final class JPEGDecoderReftestConformanceTests: XCTestCase {
    /// Files whose scans stop before the image is complete: refused by default, flagged when accepted.
    private static let incompleteFiles: Set = ["progressive-missing-ac.jpg", "progressive-missing-dc.jpg"]

    /// disabled.list is not honoured for jpg-size-3x3 and 4x4: the crate skips them for its own
    /// upsampling, and libjpeg-turbo matches their references exactly. jpg-size-6x6 is a PNG, tested below.
    /// The renders are of the stored pixels without colour management (ycck.jpg carries a SWOP
    /// CMYK profile, which imgcache applies by default), so the files are decoded with `.ignore`.
    func testLossyFilesMatchReferencesWithinThree() throws {
        let folder = try Corpus.folder("jpeg-decoder/reftest")
        var matched = 0, incomplete = 0
        for file in try Corpus.files(in: folder, suffix: ".jpg") + Corpus.files(in: folder.appendingPathComponent("mozilla"), suffix: ".jpg") {
            let name = file.lastPathComponent
            guard name != "jpg-size-6x6.jpg" else { continue }
            let reference = file.deletingPathExtension().appendingPathExtension("png")
            guard FileManager.default.fileExists(atPath: reference.path) else { continue }
            let decoded = try ImageDecoder.decode(
                .file(path: file.path), options: DecodingOptions(acceptsTruncatedData: true, colorPolicy: .ignore))
            XCTAssertEqual(decoded.info.isTruncated, Self.incompleteFiles.contains(name), name)
            if decoded.info.isTruncated {
                incomplete += 1
                XCTAssertNotNil(JPEGDecoding.failure(file), "\(name) decodes without acceptsTruncatedData")
            }
            let difference = try PixelDifference(decoded.frames[0].bitmap, ReferenceImage.png(reference))
            XCTAssertLessThanOrEqual(difference.maximum, 3, name)
            matched += 1
        }
        Corpus.report("jpeg-decoder reftest lossy", ["within 3": matched, "incomplete, flagged": incomplete])
        XCTAssertEqual(matched, 36)
    }

    /// libjpeg-turbo 2.1.5 has no lossless (SOF3) decoder: each such file is refused with a typed error.
    func testLosslessFilesFailWithTypedError() throws {
        let folder = try Corpus.folder("jpeg-decoder/reftest/lossless")
        var refused = 0
        for group in ["1", "2"] {
            for file in try Corpus.files(in: folder.appendingPathComponent(group), suffix: ".jpg") {
                XCTAssertEqual(JPEGDecoding.failure(file), "Unsupported JPEG process: SOF type 0xc3", file.lastPathComponent)
                refused += 1
            }
        }
        Corpus.report("jpeg-decoder reftest lossless", ["refused": refused])
        XCTAssertEqual(refused, 11)
    }

    func testPNGNamedAsJPEGIsSniffedAndDecodedAsPNG() throws {
        let folder = try Corpus.folder("jpeg-decoder/reftest/mozilla")
        let decoded = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("jpg-size-6x6.jpg").path))
        XCTAssertEqual(decoded.info.format, .png)
        XCTAssertEqual(decoded.size, PixelSize(width: 6, height: 6))
        let reference = try ReferenceImage.png(folder.appendingPathComponent("jpg-size-6x6.png"))
        XCTAssertEqual(try PixelDifference(decoded.frames[0].bitmap, reference).maximum, 0)
    }

    /// rgb_WxH.png are rgb.jpg (500x333) scaled for the crate's scaled decodes. libjpeg-turbo's 1/8
    /// DCT-domain decode equals rgb_63x42.png exactly; the 1/2 and 1/4 renders come from another
    /// scaler (max diff 38 and 30, mean about 3), so only their size and mean difference are checked.
    func testDCTScaledDecodesMatchScaledReferences() throws {
        let folder = try Corpus.folder("jpeg-decoder/reftest")
        for (denominator, width, height) in [(2, 250, 167), (4, 125, 84), (8, 63, 42)] {
            let decoded = try JPEGDecoding.bitmap(folder.appendingPathComponent("rgb.jpg"),
                                                  settings: JPEGDecoder.Settings(fixedScaleDenominator: denominator))
            let reference = try ReferenceImage.png(folder.appendingPathComponent("rgb_\(width)x\(height).png"))
            let difference = try PixelDifference(decoded, reference)
            if denominator == 8 { XCTAssertEqual(difference.maximum, 0) } else { XCTAssertLessThan(difference.mean, 4) }
        }
        Corpus.report("jpeg-decoder reftest scaled", ["exact": 1, "same size, mean diff < 4": 2])
    }

    /// jpg-cmyk-1.jpg with its Adobe marker (transform 0, plain CMYK) removed is still read as
    /// inverted CMYK, as browsers read it, so it decodes exactly as with the marker (and within 3
    /// of its reference, as the test above checks).
    func testCMYKWithoutAdobeMarkerDecodesLikeWithIt() throws {
        let file = try Corpus.folder("jpeg-decoder/reftest/mozilla").appendingPathComponent("jpg-cmyk-1.jpg")
        let bytes = [UInt8](try Data(contentsOf: file))
        let adobe = try XCTUnwrap(JPEGSegments.offset(of: 0xEE, in: bytes))
        let length = Int(bytes[adobe + 2]) << 8 | Int(bytes[adobe + 3])
        let stripped = [UInt8](bytes[..<adobe] + bytes[(adobe + 2 + length)...])
        XCTAssertNil(JPEGSegments.offset(of: 0xEE, in: stripped))
        let withoutMarker = try ImageDecoder.decode(.data(Data(stripped))).frames[0].bitmap
        let withMarker = try ImageDecoder.decode(.file(path: file.path)).frames[0].bitmap
        XCTAssertTrue(withoutMarker == withMarker, "decodes differ without the Adobe marker")
    }

    func testCrashtestFilesDecodeOrFailCleanly() throws {
        let outcome = try CleanOutcome.check(folder: Corpus.folder("jpeg-decoder/crashtest"), suffixes: [".jpg"])
        Corpus.report("jpeg-decoder crashtest", outcome.counts)
    }

    func testBrokenICCFilesDecodeOrFailCleanly() throws {
        let outcome = try CleanOutcome.check(folder: Corpus.folder("jpeg-decoder/icc"), suffixes: [".jpg"])
        Corpus.report("jpeg-decoder icc", outcome.counts)
    }
}

/// Go's image testdata: golden PNGs (tolerance 8/255 per channel, as decode_test.go) and the
/// baseline/progressive pairs reader_test.go decodes to identical pixels.
final class GoImageJPEGConformanceTests: XCTestCase {
    /// (file, golden, fancy upsampling). The goldens of 221212 and rgb were made with each chroma
    /// sample repeated (Go's decoder; djpeg -nosmooth gives them exactly), so they are compared with
    /// fancy upsampling off; with it on (the default) their sharp chroma edges differ by up to 30 and 94.
    private static let goldens = [
        ("video-001.jpeg", "video-001.png", true),
        ("video-001.progressive.jpeg", "video-001.png", true),
        ("video-001.221212.jpeg", "video-001.221212.png", false),
        ("video-001.cmyk.jpeg", "video-001.cmyk.png", true),
        ("video-001.rgb.jpeg", "video-001.rgb.png", false),
        ("video-005.gray.jpeg", "video-005.gray.png", true),
    ]

    func testJPEGsMatchGoldenPNGsWithinEightLevels() throws {
        let folder = try Corpus.folder("go-image/image-testdata")
        for (file, golden, fancyUpsampling) in Self.goldens {
            let decoded = try JPEGDecoding.bitmap(
                folder.appendingPathComponent(file), settings: JPEGDecoder.Settings(fancyUpsampling: fancyUpsampling))
            let difference = try PixelDifference(decoded, ReferenceImage.png(folder.appendingPathComponent(golden)))
            XCTAssertLessThanOrEqual(difference.maximum, 8, file)
        }
        Corpus.report("go-image JPEG goldens", ["within 8": Self.goldens.count])
    }

    func testTruncatedProgressiveIsRefusedByDefaultAndMatchesGoldenWhenAccepted() throws {
        let folder = try Corpus.folder("go-image/image-testdata")
        let file = folder.appendingPathComponent("video-001.progressive.truncated.jpeg")
        XCTAssertEqual(JPEGDecoding.failure(file),
                       "progressive scans stop before the image is complete (truncated file)")
        let decoded = try ImageDecoder.decode(.file(path: file.path), options: DecodingOptions(acceptsTruncatedData: true))
        XCTAssertTrue(decoded.info.isTruncated)
        let golden = try ReferenceImage.png(folder.appendingPathComponent("video-001.progressive.truncated.png"))
        XCTAssertLessThanOrEqual(try PixelDifference(decoded.frames[0].bitmap, golden).maximum, 8)
    }

    func testProgressiveFilesDecodeLikeTheirBaselineTwins() throws {
        let folder = try Corpus.folder("go-image/image-testdata")
        let stems = ["video-001", "video-001.q50.410", "video-001.q50.411", "video-001.q50.420", "video-001.q50.422",
                     "video-001.q50.440", "video-001.q50.444", "video-005.gray.q50", "video-005.gray.q50.2x2",
                     "video-001.separate.dc.progression"]
        for stem in stems {
            let baseline = try JPEGDecoding.bitmap(folder.appendingPathComponent(stem + ".jpeg"))
            let progressive = try JPEGDecoding.bitmap(folder.appendingPathComponent(stem + ".progressive.jpeg"))
            XCTAssertEqual(baseline.size, PixelSize(width: 150, height: 103), stem)
            XCTAssertTrue(progressive == baseline, "\(stem): progressive and baseline decodes differ")
        }
        Corpus.report("go-image progressive pairs", ["identical": stems.count])
    }

    /// Go's TestBadRestartMarker: bytes before the FF D1 restart marker at offset 2816 are skipped
    /// and the image is unchanged; a wrong marker there is recovered from (libjpeg resynchronises)
    /// or refused, never a crash.
    func testBytesBeforeRestartMarkerAreSkipped() throws {
        let folder = try Corpus.folder("go-image/image-testdata")
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("video-001.restart2.jpeg")))
        XCTAssertEqual(Array(bytes[2816...2817]), [0xFF, 0xD1])
        let original = try ImageDecoder.decode(.data(Data(bytes)))
        let skipped: [[UInt8]] = [[0x00], [0x61], [0x61, 0x62, 0x63, 0xFF, 0x00, 0x64], [0xFF], [0xFF, 0x00],
                                  [0xFF, 0xFF, 0xFF, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0xFF, 0xFF]]
        for insert in skipped {
            let decoded = try ImageDecoder.decode(.data(Data(bytes[..<2816] + insert + bytes[2816...])))
            XCTAssertTrue(decoded == original, "\(insert) before the restart marker changed the image")
        }
        for insert: [UInt8] in [[0xFF, 0x03], [0xFF, 0xD5], [0xFF, 0xFF, 0xD5]] {
            let outcome = CleanOutcome.decode(.data(Data(bytes[..<2816] + insert + bytes[2816...])))
            XCTAssertTrue(outcome.isClean, "\(insert)")
        }
        Corpus.report("go-image restart markers", ["unchanged": skipped.count, "clean": 3])
    }
}

/// image-rs reference renders (RGBA PNGs of its own decoder) of its JPEG images, and its regressions.
final class ImageRsJPEGConformanceTests: XCTestCase {
    /// cat.jpg: one sample of 230,400 differs by 4 (libjpeg-turbo's ISLOW IDCT rounds differently
    /// from jpeg-decoder's); every other sample of every file is within 3.
    func testProgressiveJPEGsMatchReferencesWithinThree() throws {
        let folder = try Corpus.folder("image-rs")
        let files = try Corpus.files(in: folder.appendingPathComponent("images/jpg/progressive"), suffix: ".jpg")
        for file in files {
            let decoded = try ImageDecoder.decode(.file(path: file.path))
            let reference = folder.appendingPathComponent("reference/jpg/progressive/\(file.lastPathComponent).png")
            let difference = try PixelDifference(decoded.frames[0].bitmap, ReferenceImage.png(reference))
            let allowed = file.lastPathComponent == "cat.jpg" ? 1 : 0
            XCTAssertLessThanOrEqual(difference.samplesOver(3), allowed, file.lastPathComponent)
            XCTAssertLessThanOrEqual(difference.maximum, 4, file.lastPathComponent)
        }
        Corpus.report("image-rs JPEG references", ["within 3": files.count])
        XCTAssertEqual(files.count, 3)
    }

    func testOtherJPEGsAndRegressionsDecodeOrFailCleanly() throws {
        let folder = try Corpus.folder("image-rs")
        let images = try CleanOutcome.check(folder: folder.appendingPathComponent("images/jpg"), suffixes: [".jpg"])
        XCTAssertEqual(images.decoded, 3)
        let regressions = try CleanOutcome.check(folder: folder.appendingPathComponent("regression/jpg"), suffixes: [".jpeg", ".jpg"])
        Corpus.report("image-rs JPEG others", images.counts)
        Corpus.report("image-rs JPEG regressions", regressions.counts)
    }
}

/// Pillow's JPEG test images: EXIF orientation, truncation, CMYK and a set of odd files.
final class PillowJPEGConformanceTests: XCTestCase {
    /// hopper_orientation_N.jpg turned upright equals hopper.jpg; they are recompressed, so the
    /// mean difference over RGBA samples is what is bounded, by 10 (Pillow's own test allows 17;
    /// hopper.jpg against any wrong turn of itself differs by 44 or more). The maximum is printed.
    func testOrientedHoppersMatchUprightHopper() throws {
        let folder = try Corpus.folder("pillow/jpeg")
        let upright = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("hopper.jpg").path))
        var largest = 0
        for value in 2...8 {
            let file = try Corpus.file("pillow/jpeg/hopper_orientation_\(value).jpg")
            let decoded = try ImageDecoder.decode(.file(path: file.path))
            XCTAssertEqual(decoded.info.orientation.rawValue, value)
            XCTAssertEqual(decoded.size, PixelSize(width: 128, height: 128))
            let difference = try PixelDifference(decoded.frames[0].bitmap, upright.frames[0].bitmap)
            XCTAssertLessThan(difference.mean, 10, file.lastPathComponent)
            largest = max(largest, difference.maximum)
        }
        Corpus.report("pillow orientation", ["matched": 7, "max diff": largest])
    }

    func testTruncatedJPEGIsRefusedByDefaultAndFlaggedWhenAccepted() throws {
        let file = try Corpus.file("pillow/jpeg/truncated_jpeg.jpg")
        XCTAssertNotNil(JPEGDecoding.failure(file))
        let decoded = try ImageDecoder.decode(.file(path: file.path), options: DecodingOptions(acceptsTruncatedData: true))
        XCTAssertTrue(decoded.info.isTruncated)
    }

    /// pil_sample_cmyk.jpg is the RGB sample converted to CMYK by Photoshop (Adobe marker, inverted).
    /// Without colour management the naive conversion differs from the RGB file by up to 31 (mean
    /// 3.5 over RGBA samples, 4.7 over RGB); Pillow's own CMYK to RGB gives the same pixels. As in
    /// Pillow's test, the top-left corner is red and the bottom-right one black.
    func testCMYKSampleIsCloseToRGBSample() throws {
        let folder = try Corpus.folder("pillow/jpeg")
        let cmyk = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("pil_sample_cmyk.jpg").path))
        let rgb = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("pil_sample_rgb.jpg").path))
        let difference = try PixelDifference(cmyk.frames[0].bitmap, rgb.frames[0].bitmap)
        XCTAssertLessThan(difference.mean, 5)
        XCTAssertLessThanOrEqual(difference.maximum, 40)
        let pixels = cmyk.frames[0].bitmap.pixels.map { Int($0) }
        XCTAssertTrue(pixels[0] > 230 && pixels[1] < 40 && pixels[2] < 40, "top left \(pixels[0..<3])")
        XCTAssertTrue(pixels.suffix(4).prefix(3).allSatisfy { $0 < 10 }, "bottom right \(pixels.suffix(4))")
        Corpus.report("pillow CMYK vs RGB", ["max diff": difference.maximum, "mean diff x100": Int(difference.mean * 100)])
    }

    func testEveryJPEGDecodesOrFailsCleanly() throws {
        let outcome = try CleanOutcome.check(folder: Corpus.folder("pillow/jpeg"), suffixes: [".jpg", ".mpo"])
        Corpus.report("pillow JPEG", outcome.counts)
        XCTAssertGreaterThanOrEqual(outcome.decoded, 38)
    }
}

/// Decoding helpers for the JPEG suites.
enum JPEGDecoding {
    /// Decodes a JPEG file at its own size with `settings`.
    static func bitmap(_ url: URL, settings: JPEGDecoder.Settings = JPEGDecoder.Settings()) throws -> Bitmap {
        var bitmap: Bitmap?
        try ImageSource.file(path: url.path).withInput { input in
            _ = try JPEGDecoder.decode(input, options: DecodingOptions(), settings: settings) { frame, _ in
                bitmap = frame.bitmap
            }
        }
        return try XCTUnwrap(bitmap)
    }

    /// The detail of the `corruptImage(.jpeg, detail)` a default decode of `url` fails with; nil
    /// (and a test failure for any other error) when it decodes.
    static func failure(_ url: URL) -> String? {
        do {
            _ = try ImageDecoder.decode(.file(path: url.path))
            return nil
        } catch ImgCacheError.corruptImage(.jpeg, let detail) {
            return detail
        } catch {
            XCTFail("\(url.lastPathComponent): unexpected error \(error)")
            return nil
        }
    }
}

/// Finds marker segments before the first scan.
enum JPEGSegments {
    /// Offset of the first `FF marker` segment before SOS, or nil.
    static func offset(of marker: UInt8, in bytes: [UInt8]) -> Int? {
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] != 0xDA {
            if bytes[position + 1] == marker { return position }
            position += 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
        }
        return nil
    }
}

/// Reference images read with our own PNG decoder (16-bit samples by their high byte) as RGBA.
enum ReferenceImage {
    static func png(_ url: URL) throws -> Bitmap {
        let decoded = try ImageDecoder.decode(.file(path: url.path))
        XCTAssertEqual(decoded.info.format, .png, url.lastPathComponent)
        return decoded.frames[0].bitmap
    }
}

/// Per-sample comparison of two RGBA bitmaps of one size.
struct PixelDifference {
    /// How many samples (R, G, B or A values) differ by each amount, 0...255.
    private let histogram: [Int]

    init(_ a: Bitmap, _ b: Bitmap) throws {
        guard a.size == b.size else { throw ImgCacheError.invalidArgument("sizes differ: \(a.size) and \(b.size)") }
        var histogram = [Int](repeating: 0, count: 256)
        for (x, y) in zip(a.pixels, b.pixels) { histogram[Int(x > y ? x - y : y - x)] += 1 }
        self.histogram = histogram
    }

    /// The largest difference of any sample.
    var maximum: Int { histogram.lastIndex { $0 > 0 } ?? 0 }
    /// The mean difference over all samples.
    var mean: Double {
        let total = histogram.reduce(0, +)
        let sum = histogram.enumerated().reduce(0) { $0 + $1.offset * $1.element }
        return total == 0 ? 0 : Double(sum) / Double(total)
    }
    /// Samples differing by more than `tolerance`.
    func samplesOver(_ tolerance: Int) -> Int { histogram[(tolerance + 1)...].reduce(0, +) }
}

/// The pass rule for files without a reference: an image, or a typed `ImgCacheError`.
enum CleanOutcome {
    case decoded(DecodedImage)
    case refused(ImgCacheError)
    case untyped(Error)

    var isClean: Bool { if case .untyped = self { return false } else { return true } }

    static func decode(_ source: ImageSource, options: DecodingOptions = DecodingOptions()) -> CleanOutcome {
        do {
            return .decoded(try ImageDecoder.decode(source, options: options))
        } catch let error as ImgCacheError {
            return .refused(error)
        } catch {
            return .untyped(error)
        }
    }

    /// Counts of one folder's files (those ending with one of `suffixes`) decoded and refused.
    struct Tally {
        var decoded = 0
        var refused = 0
        var counts: KeyValuePairs<String, Int> { ["decoded": decoded, "refused with a typed error": refused] }
    }

    /// Decodes every matching file in `folder` by default and with `acceptsTruncatedData`, failing
    /// the test on an untyped error, and prints each refusal.
    static func check(folder: URL, suffixes: [String]) throws -> Tally {
        var tally = Tally()
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { file in suffixes.contains { file.lastPathComponent.hasSuffix($0) } }
        for file in files {
            for options in [DecodingOptions(), DecodingOptions(acceptsTruncatedData: true)] {
                let outcome = decode(.file(path: file.path), options: options)
                XCTAssertTrue(outcome.isClean, "\(file.lastPathComponent): \(outcome)")
                guard !options.acceptsTruncatedData else { continue }
                if case .refused(let error) = outcome {
                    tally.refused += 1
                    print("[conformance]   refused \(folder.lastPathComponent)/\(file.lastPathComponent): \(error)")
                } else {
                    tally.decoded += 1
                }
            }
        }
        return tally
    }
}
