import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// AVIF written by `AVIFEncoder`, read back by libavif's own `avifdec` (with dav1d) and by
/// imgcache's decoder: within the codec's loss at the quality asked, alpha kept, sequences
/// with their frames, and a byte cap met at the largest quality that fits.
final class AVIFEncoderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/avifdec") else {
            throw XCTSkip("/usr/bin/avifdec is missing (apt-get install libavif-bin, or make setup)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-avif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// avifdec's RGBA decode of `data` (its first frame) and what `avifdec --info` prints.
    private func avifdec(_ data: Data, _ name: String) throws -> (bitmap: Bitmap, info: String) {
        let file = folder.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: file))
        let decoded = try ProductRunner.runTool("avifdec", ["--depth", "8", file, file + ".png"], in: folder)
        XCTAssertEqual(decoded.status, 0, decoded.errors)
        let info = try ProductRunner.runTool("avifdec", ["--info", file], in: folder)
        XCTAssertEqual(info.status, 0, info.errors)
        return (try ImageDecoder.decode(.file(path: file + ".png")).frames[0].bitmap, info.output)
    }

    /// The value avifdec --info prints after `label` ("Format", "Alpha"...).
    private func field(_ label: String, in info: String) -> String? {
        info.split(separator: "\n").first { $0.contains("* \(label)") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
    }

    private func alphas(_ bitmap: Bitmap) -> [UInt8] { stride(from: 3, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] } }

    func testQualityMapsToLibheifsCQLevel() {
        XCTAssertEqual([100, 90, 85, 63, 50, 1].map(AVIFEncoder.cqLevel(forQuality:)), [0, 6, 9, 23, 32, 62])
    }

    func testStillDecodesWithAvifdecWithinTheCodecsLossAndQualityTradesSizeForFidelity() throws {
        let bitmap = try HEIFFixtures.picture(width: 240, height: 160)
        var results: [(bytes: Int, psnr: Double)] = []
        for quality in [20, 63, 90] {
            let data = try AVIFEncoder.encode(bitmap, quality: quality)
            let (decoded, info) = try avifdec(data, "q\(quality).avif")
            XCTAssertEqual(decoded.size, bitmap.size)
            XCTAssertTrue(decoded.isOpaque)
            XCTAssertEqual(field("Alpha", in: info), "Absent")
            XCTAssertEqual(field("Format", in: info), quality >= 90 ? "YUV444" : "YUV420")
            XCTAssertEqual(field("Range", in: info), "Full")
            XCTAssertEqual(field("Matrix Coeffs.", in: info), "6")
            // imgcache's decoder reads what libavif's tool reads, give or take YCbCr rounding.
            let ours = try ImageDecoder.decode(.data(data)).frames[0].bitmap
            XCTAssertGreaterThan(PSNR.of(ours.pixels, decoded.pixels), 45)
            results.append((data.count, PSNR.of(decoded.pixels, bitmap.pixels)))
        }
        XCTAssertLessThan(results[0].bytes, results[1].bytes)
        XCTAssertLessThan(results[1].bytes, results[2].bytes)
        XCTAssertGreaterThan(results[0].psnr, 30)
        XCTAssertGreaterThan(results[1].psnr, 35)
        XCTAssertGreaterThan(results[2].psnr, results[1].psnr + 3)
    }

    func testTranslucentPixelsKeepTheirAlphaInAnAlphaPlane() throws {
        let bitmap = TestImages.scene(width: 64, height: 48, translucent: true)
        let data = try AVIFEncoder.encode(bitmap, quality: 80)
        let (decoded, info) = try avifdec(data, "alpha.avif")
        XCTAssertEqual(field("Alpha", in: info), "Not premultiplied")
        let expected = alphas(bitmap), read = alphas(decoded)
        XCTAssertGreaterThan(PSNR.of(read, expected), 35)
        XCTAssertEqual(zip(read, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0, 0, accuracy: 24)
        XCTAssertFalse(decoded.isOpaque)
        XCTAssertGreaterThan(PSNR.of(PSNR.premultiplied(decoded.pixels), PSNR.premultiplied(bitmap.pixels)), 30)
    }

    func testSeveralFramesMakeASequenceWithTheirDelays() throws {
        let frames = (0..<3).map { index in
            ImageFrame(bitmap: TestImages.scene(width: 48, height: 32, seed: UInt64(index + 1)), delayCentiseconds: [5, 0, 20][index])
        }
        let image = DecodedImage(info: ImageInfo(format: .gif, sourceSize: PixelSize(width: 48, height: 32)), frames: frames)
        let data = try AVIFEncoder.encode(image, quality: 90)
        let (_, info) = try avifdec(data, "sequence.avif")
        XCTAssertTrue(info.contains("3 frames"), info)
        let read = try ImageDecoder.decode(.data(data), options: DecodingOptions(maxFrames: 10))
        XCTAssertEqual(read.frames.map(\.delayCentiseconds), [5, 1, 20])
        for (frame, source) in zip(read.frames, frames) {
            XCTAssertGreaterThan(PSNR.of(frame.bitmap.pixels, source.bitmap.pixels), 30)
        }
    }

    func testOneAndOddSidedImagesKeepTheirSize() throws {
        for (width, height) in [(1, 1), (3, 5), (17, 2)] {
            let bitmap = TestImages.scene(width: width, height: height, translucent: true)
            let (decoded, _) = try avifdec(try AVIFEncoder.encode(bitmap, quality: 90), "\(width)x\(height).avif")
            XCTAssertEqual(decoded.size, bitmap.size)
            XCTAssertGreaterThan(PSNR.of(decoded.pixels, bitmap.pixels), 25, "\(width)x\(height)")
        }
    }

    func testAnICCProfileIsStoredForReaders() throws {
        let profile = ColorFixtures.displayP3
        let data = try AVIFEncoder.encode(TestImages.scene(width: 32, height: 32), iccProfile: profile)
        let info = try avifdec(data, "icc.avif").info
        XCTAssertEqual(field("ICC Profile", in: info), "Present (\(profile.count) bytes)")
        XCTAssertEqual(field("Color Primaries", in: info), "2", "unspecified: the profile says them")
        XCTAssertEqual(field("Transfer Char.", in: info), "2")
        XCTAssertEqual(try ImageDecoder.inspect(.data(data)).colorProfile.embeddedBytes(under: .keep), profile)
    }

    func testBadArgumentsAreRefusedByName() {
        let bitmap = TestImages.scene(width: 8, height: 8)
        for quality in [0, 101] {
            XCTAssertThrowsError(try AVIFEncoder.encode(bitmap, quality: quality)) {
                XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("AVIF quality \(quality) is not in 1...100"))
            }
        }
        XCTAssertThrowsError(try AVIFEncoder.encode(bitmap, iccProfile: [])) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("an ICC profile of 0 bytes is not in 1...\(ColorProfile.maxByteCount)"))
        }
        let mixed = DecodedImage(
            info: ImageInfo(format: .gif, sourceSize: bitmap.size),
            frames: [ImageFrame(bitmap: bitmap), ImageFrame(bitmap: TestImages.scene(width: 4, height: 8))])
        XCTAssertThrowsError(try AVIFEncoder.encode(mixed)) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("frame is 4x8, the AVIF is 8x8"))
        }
        XCTAssertThrowsError(try AVIFEncoder.encode(DecodedImage(info: ImageInfo(format: .gif, sourceSize: bitmap.size), frames: []))) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("an AVIF needs at least one frame"))
        }
    }

    func testAFrameOverLibaomsWorkingMemoryIsRefusedBeforeEncoding() throws {
        XCTAssertEqual(AVIFEncoder.maxPixels, 11_184_810)
        let over = try Bitmap(size: PixelSize(width: 4096, height: 2731), pixels: [UInt8](repeating: 255, count: 4096 * 2731 * 4))
        XCTAssertThrowsError(try AVIFEncoder.encode(over)) {
            XCTAssertEqual($0 as? ImgCacheError, .dimensionsOverLimit(width: 4096, height: 2731, limit: 11_184_810))
        }
    }

    func testUnderACapTheVariantIsAtTheLargestQualityThatFits() throws {
        let bitmap = TestImages.scene(width: 96, height: 64, translucent: true)
        let still = DecodedImage(info: ImageInfo(format: .png, sourceSize: bitmap.size), frames: [ImageFrame(bitmap: bitmap)])
        let sizes = try (1...63).map { try AVIFEncoder.encode(bitmap, quality: $0).count }
        let cap = sizes[39]
        let (data, format) = try VariantEncoder(format: .avif(quality: 63), maxBytes: cap).encode(still)
        XCTAssertEqual(format, .avif)
        XCTAssertLessThanOrEqual(data.count, cap)
        // Neighbouring qualities can share a cq-level, and so their bytes: the highest one that gives these.
        let chosen = try XCTUnwrap((1...63).last { try AVIFEncoder.encode(bitmap, quality: $0) == data })
        XCTAssertGreaterThanOrEqual(chosen, 40)
        XCTAssertGreaterThan(sizes[chosen], cap, "quality \(chosen + 1) also fits \(cap) bytes")
        XCTAssertThrowsError(try VariantEncoder(format: .avif(quality: 63), maxBytes: sizes[0] - 1).encode(still)) {
            XCTAssertEqual($0 as? ImgCacheError, .outputOverByteLimit(format: .avif, bytes: sizes[0], limit: sizes[0] - 1))
        }
    }
}
