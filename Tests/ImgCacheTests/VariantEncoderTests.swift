import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// The format choice of `VariantEncoder` and its byte cap: JPEG and lossy WebP at the largest
/// quality that fits, the others as they are, and a typed error when nothing fits.
final class VariantEncoderTests: XCTestCase {
    private let photo = TestImages.scene(width: 160, height: 120)
    private let graphic = TestImages.scene(width: 160, height: 120, translucent: true)

    private func still(_ bitmap: Bitmap) -> DecodedImage {
        DecodedImage(info: ImageInfo(format: .png, sourceSize: bitmap.size), frames: [ImageFrame(bitmap: bitmap)])
    }

    /// The quality `data` was encoded at: the one whose encoding is byte for byte `data`.
    private func quality(of data: Data, _ encode: (Int) throws -> Data) throws -> Int {
        try XCTUnwrap(try (1...100).first { try encode($0) == data }, "no quality gives these bytes")
    }

    func testWebPIsLossyWhenOpaqueLosslessWhenTranslucentAndLosslessWhenAsked() throws {
        let cases: [(ImageRequest.OutputFormat, Bitmap, String)] = [
            (.webp(quality: 80), photo, "VP8 "), (.webp(quality: 80), graphic, "VP8L"),
            (.webpLossless, photo, "VP8L"), (.webpLossless, graphic, "VP8L"),
        ]
        for (format, bitmap, chunk) in cases {
            let (data, written) = try VariantEncoder(format: format).encode(still(bitmap))
            XCTAssertEqual(written, .webp)
            XCTAssertEqual(String(decoding: data[12..<16], as: UTF8.self), chunk, "\(format)")
        }
        XCTAssertEqual(
            try VariantEncoder(format: .webp(quality: 80)).encode(still(photo)).data,
            try WebPEncoder.encode(photo, compression: .lossy(quality: 80)))
        // `.automatic` never picks WebP.
        XCTAssertEqual(try VariantEncoder(format: .automatic).encode(still(photo)).format, .jpeg)
        XCTAssertEqual(try VariantEncoder(format: .automatic).encode(still(graphic)).format, .png)
    }

    func testJPEGUnderACapIsAtTheLargestQualityThatFitsAndOneStepHigherExceedsIt() throws {
        let encode = { (quality: Int) in try JPEGEncoder.encode(self.photo, quality: quality) }
        let sizes = try (1...85).map { try encode($0).count }
        for cap in [sizes[59], sizes[59] + 1, sizes[20] - 1, (sizes[0] + sizes[1]) / 2] {
            let (data, format) = try VariantEncoder(format: .jpeg(quality: 85), maxBytes: cap).encode(still(photo))
            XCTAssertEqual(format, .jpeg)
            XCTAssertLessThanOrEqual(data.count, cap)
            let chosen = try quality(of: data, encode)
            XCTAssertGreaterThan(sizes[chosen], cap, "quality \(chosen + 1) also fits \(cap) bytes")
            XCTAssertEqual(chosen, sizes.lastIndex { $0 <= cap }.map { $0 + 1 }, "cap \(cap)")
        }
        // `.automatic`'s JPEG searches down from the request's quality.
        let automatic = try VariantEncoder(format: .automatic, quality: 50, maxBytes: sizes[84]).encode(still(photo))
        XCTAssertEqual(automatic.data, try encode(50))
    }

    func testLossyWebPUnderACapIsAtTheLargestQualityThatFitsEvenForATranslucentGraphic() throws {
        for bitmap in [photo, graphic] {
            let encode = { (quality: Int) in try WebPEncoder.encode(bitmap, compression: .lossy(quality: quality)) }
            let sizes = try (1...90).map { try encode($0).count }
            let cap = sizes[49]
            let (data, format) = try VariantEncoder(format: .webp(quality: 90), maxBytes: cap).encode(still(bitmap))
            XCTAssertEqual(format, .webp)
            XCTAssertLessThanOrEqual(data.count, cap)
            let chosen = try quality(of: data, encode)
            XCTAssertGreaterThanOrEqual(chosen, 50)
            XCTAssertGreaterThan(sizes[chosen], cap, "quality \(chosen + 1) also fits \(cap) bytes")
        }
    }

    func testACapWithRoomLeavesTheOutputAsItIs() throws {
        let uncapped = try VariantEncoder(format: .webp(quality: 85)).encode(still(photo)).data
        XCTAssertEqual(try VariantEncoder(format: .webp(quality: 85), maxBytes: uncapped.count).encode(still(photo)).data, uncapped)
        let png = try PNGEncoder.encode(graphic)
        XCTAssertEqual(try VariantEncoder(format: .png, maxBytes: png.count).encode(still(graphic)).data, png)
    }

    func testWhatCannotFitFailsWithTheSmallestOutputMade() throws {
        let smallestJPEG = try JPEGEncoder.encode(photo, quality: 1).count
        XCTAssertThrowsError(try VariantEncoder(format: .jpeg(quality: 85), maxBytes: smallestJPEG - 1).encode(still(photo))) {
            XCTAssertEqual($0 as? ImgCacheError, .outputOverByteLimit(format: .jpeg, bytes: smallestJPEG, limit: smallestJPEG - 1))
        }
        let smallestWebP = try WebPEncoder.encode(photo, compression: .lossy(quality: 1)).count
        XCTAssertThrowsError(try VariantEncoder(format: .webp(quality: 85), maxBytes: 100).encode(still(photo))) {
            XCTAssertEqual($0 as? ImgCacheError, .outputOverByteLimit(format: .webp, bytes: smallestWebP, limit: 100))
        }
        let png = try PNGEncoder.encode(graphic).count
        XCTAssertThrowsError(try VariantEncoder(format: .png, maxBytes: png - 1).encode(still(graphic))) {
            XCTAssertEqual($0 as? ImgCacheError, .outputOverByteLimit(format: .png, bytes: png, limit: png - 1))
            XCTAssertEqual(
                "\($0)", "the smallest PNG output is \(png) bytes, over the cap of \(png - 1) bytes (max bytes)")
        }
    }

    func testOutOfRangeQualitiesAndCapsAreRefused() {
        XCTAssertThrowsError(try VariantEncoder(format: .webp(quality: 101))) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("quality 101 is not in 1...100"))
        }
        XCTAssertThrowsError(try VariantEncoder(format: .automatic, quality: 0)) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("quality 0 is not in 1...100"))
        }
        XCTAssertThrowsError(try VariantEncoder(format: .jpeg(quality: 80), maxBytes: 0)) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("a byte cap of 0 is not at least 1 byte"))
        }
    }
}
