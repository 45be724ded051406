import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// HEIC (libheif) and AVIF (libavif) read through the decoder seam, on files made at test time by
/// heif-enc and avifenc (`HEIFFixtures`): sniffing from `ftyp` brands, pixels, alpha, colour,
/// sequences, limits from the header and damaged files.
final class HEIFDecoderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        guard HEIFFixtures.toolsInstalled else { throw XCTSkip("heif-enc or avifenc is missing (make setup installs them)") }
        folder = try HEIFFixtures.folder()
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let size = 16 + 4 * compatible.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp\(major)".utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
    }

    func testFormatComesFromTheFtypBrands() throws {
        XCTAssertEqual(try ImageFormat.sniff(Self.ftyp("heic", ["mif1", "heic"])), .heic)
        XCTAssertEqual(try ImageFormat.sniff(Self.ftyp("heix", [])), .heic)
        XCTAssertEqual(try ImageFormat.sniff(Self.ftyp("mif1", ["mif1", "miaf", "MiHB", "heic"])), .heic)
        XCTAssertEqual(try ImageFormat.sniff(Self.ftyp("msf1", ["msf1", "hevc"])), .heic)
        XCTAssertEqual(try ImageFormat.sniff(Self.ftyp("avif", ["mif1", "miaf"])), .avif)
        XCTAssertEqual(try ImageFormat.sniff(Self.ftyp("avis", ["avis", "msf1"])), .avif)
        // The AV1 brand is read from far in the box: the signature is 256 bytes.
        XCTAssertEqual(try ImageFormat.sniff(Self.ftyp("mif1", Array(repeating: "miaf", count: 20) + ["avif"])), .avif)
        XCTAssertThrowsError(try ImageFormat.sniff(Self.ftyp("isom", ["isom", "mp41"]))) {
            guard case .unsupportedFormat = $0 as? ImgCacheError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try ImageFormat.sniff(Array("\0\0\0\u{8}ftyp".utf8)))
    }

    func testLosslessAVIFDecodesToItsPixelsWithAlpha() throws {
        let bitmap = TestImages.scene(width: 61, height: 37, translucent: true)
        let path = try HEIFFixtures.avif([bitmap], "scene.avif", in: folder)
        let decoded = try ImageDecoder.decode(.file(path: path))
        XCTAssertEqual(decoded.info.format, .avif)
        XCTAssertEqual(decoded.info.sourceSize, PixelSize(width: 61, height: 37))
        XCTAssertEqual(decoded.frames.count, 1)
        XCTAssertEqual(decoded.frames[0].bitmap, bitmap)
        let inspection = try ImageDecoder.inspect(.file(path: path))
        XCTAssertEqual(inspection, ImageInspection(format: .avif, size: PixelSize(width: 61, height: 37)))
    }

    func testHEICDecodesCloseToItsSourceWithAlphaAndResamples() throws {
        let bitmap = TestImages.scene(width: 128, height: 96, translucent: true)
        let path = try HEIFFixtures.heic(bitmap, "scene.heic", in: folder, options: ["-L", "-p", "chroma=444"])
        let decoded = try ImageDecoder.decode(.file(path: path))
        XCTAssertEqual(decoded.info.format, .heic)
        XCTAssertEqual(decoded.size, PixelSize(width: 128, height: 96))
        XCTAssertGreaterThan(PSNR.of(decoded.frames[0].bitmap.pixels, bitmap.pixels), 40)
        let alpha = stride(from: 3, to: bitmap.pixels.count, by: 4)
        XCTAssertEqual(alpha.map { decoded.frames[0].bitmap.pixels[$0] }, alpha.map { bitmap.pixels[$0] })
        let small = try ImageDecoder.decode(.file(path: path), options: DecodingOptions(targetSize: PixelSize(width: 32, height: 32)))
        XCTAssertEqual(small.size, PixelSize(width: 32, height: 24))
        XCTAssertEqual(small.info.sourceSize, PixelSize(width: 128, height: 96))
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: path)).size, PixelSize(width: 128, height: 96))
    }

    func testNCLXDisplayP3IsConvertedToSRGBUnderConvertAndLeftUnderIgnore() throws {
        var bitmap = Bitmap(size: PixelSize(width: 16, height: 16))
        for offset in stride(from: 0, to: bitmap.pixels.count, by: 4) { bitmap.pixels.replaceSubrange(offset..<offset + 4, with: [40, 200, 60, 255]) }
        let path = try HEIFFixtures.avif([bitmap], "p3.avif", in: folder, options: ["--lossless", "--cicp", "12/13/0"])
        let ignored = try ImageDecoder.decode(.file(path: path), options: DecodingOptions(colorPolicy: .ignore))
        XCTAssertEqual(Array(ignored.frames[0].bitmap.pixels.prefix(4)), [40, 200, 60, 255])
        let converted = try ImageDecoder.decode(.file(path: path))
        XCTAssertEqual(converted.info.colorProfile.summary, "nclx primaries 12, transfer 13")
        // Display P3's green is outside sRGB: red drops to 0, green rises.
        let pixel = Array(converted.frames[0].bitmap.pixels.prefix(4))
        XCTAssertLessThan(pixel[0], 20)
        XCTAssertGreaterThan(pixel[1], 200)
        XCTAssertEqual(pixel[3], 255)
    }

    func testSequenceKeepsTheFirstFramesWithTheirDelaysAndDecodesNoMore() throws {
        let colors: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]]
        let frames = colors.map { color -> Bitmap in
            var bitmap = Bitmap(size: PixelSize(width: 8, height: 8))
            for offset in stride(from: 0, to: bitmap.pixels.count, by: 4) { bitmap.pixels.replaceSubrange(offset..<offset + 4, with: color) }
            return bitmap
        }
        let path = try HEIFFixtures.avif(frames, "seq.avif", in: folder, fps: 20)
        let inspection = try ImageDecoder.inspect(.file(path: path))
        XCTAssertEqual(inspection.frameCount, 4)
        XCTAssertEqual(inspection.loopCount, 0)
        let decoded = try ImageDecoder.decode(.file(path: path), options: DecodingOptions(maxFrames: 3))
        XCTAssertEqual(decoded.frames.count, 3)
        XCTAssertEqual(decoded.frames.map(\.delayCentiseconds), [5, 5, 5])
        XCTAssertEqual(decoded.frames.map { Array($0.bitmap.pixels.prefix(4)) }, Array(colors.prefix(3)))
    }

    func testOversizedHeaderIsRefusedBeforeDecodingAndReportedByInspect() throws {
        let bitmap = TestImages.scene(width: 32, height: 32)
        for (format, path) in [(ImageFormat.avif, try HEIFFixtures.avif([bitmap], "big.avif", in: folder)),
                               (.heic, try HEIFFixtures.heic(bitmap, "big.heic", in: folder))] {
            let bytes = HEIFFixtures.withSpatialExtents(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), width: 12_000, height: 10_000)
            XCTAssertEqual(try ImageDecoder.inspect(.data(Data(bytes))).size, PixelSize(width: 12_000, height: 10_000), "\(format)")
            XCTAssertThrowsError(try ImageDecoder.decode(.data(Data(bytes)), options: DecodingOptions(targetSize: PixelSize(width: 100, height: 100)))) {
                XCTAssertEqual($0 as? ImgCacheError, .dimensionsOverLimit(width: 12_000, height: 10_000, limit: 100_000_000), "\(format)")
            }
        }
    }

    func testTruncatedAndGarbageFilesAreCorruptImageErrors() throws {
        let bitmap = TestImages.scene(width: 64, height: 64)
        for (format, path) in [(ImageFormat.avif, try HEIFFixtures.avif([bitmap], "t.avif", in: folder, options: ["--speed", "8"])),
                               (.heic, try HEIFFixtures.heic(bitmap, "t.heic", in: folder))] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let ftypSize = Int(bytes[3])
            for damaged in [Array(bytes.prefix(bytes.count / 2)), Array(bytes.prefix(ftypSize)) + Array(repeating: 0xA5, count: 300),
                            Array(bytes.prefix(bytes.count - 40))] {
                XCTAssertThrowsError(try ImageDecoder.decode(.data(Data(damaged)))) {
                    guard case .corruptImage(let reported, _) = $0 as? ImgCacheError else { return XCTFail("\(format): \($0)") }
                    XCTAssertEqual(reported, format)
                }
            }
        }
    }

    func testThumbnailIsUsedOnlyWhenItCoversTheTargetsAtTheImagesAspect() throws {
        let image = PixelSize(width: 1280, height: 854)
        func covering(_ thumbnail: PixelSize, _ target: PixelSize, mode: ContentMode = .fit) throws -> Bool {
            let options = DecodingOptions(targetSize: target, contentMode: mode)
            let geometry = try options.geometry(forStoredSize: image, orientation: .up)
            return HEICDecoder.geometries(ofThumbnail: thumbnail, image: image, targets: [options], geometries: [geometry]) != nil
        }
        XCTAssertTrue(try covering(PixelSize(width: 320, height: 212), PixelSize(width: 160, height: 160)))
        XCTAssertTrue(try covering(PixelSize(width: 320, height: 212), PixelSize(width: 300, height: 300)))
        XCTAssertFalse(try covering(PixelSize(width: 320, height: 212), PixelSize(width: 320, height: 320)), "214 rows from 212")
        XCTAssertFalse(try covering(PixelSize(width: 212, height: 320), PixelSize(width: 100, height: 100)), "turned the other way")
        XCTAssertFalse(try covering(PixelSize(width: 320, height: 240), PixelSize(width: 100, height: 100)), "another aspect")
        XCTAssertFalse(try covering(PixelSize(width: 320, height: 212), PixelSize(width: 250, height: 250), mode: .fill), "250 rows from 212")
        XCTAssertTrue(try covering(PixelSize(width: 320, height: 212), PixelSize(width: 200, height: 200), mode: .fill))
    }

    func testEmbeddedThumbnailDecodesTheSamePicture() throws {
        let bitmap = TestImages.scene(width: 512, height: 384)
        let path = try HEIFFixtures.heic(bitmap, "thumb.heic", in: folder, options: ["-q", "90", "-t", "128"])
        let small = try ImageDecoder.decode(.file(path: path), options: DecodingOptions(targetSize: PixelSize(width: 64, height: 64)))
        XCTAssertEqual(small.size, PixelSize(width: 64, height: 48))
        XCTAssertEqual(small.info.sourceSize, PixelSize(width: 512, height: 384))
        let reference = try ImageDecoder.decode(.file(path: TestImages.pngFile(bitmap)), options: DecodingOptions(targetSize: PixelSize(width: 64, height: 64)))
        XCTAssertGreaterThan(PSNR.of(small.frames[0].bitmap.pixels, reference.frames[0].bitmap.pixels), 24)
    }
}
