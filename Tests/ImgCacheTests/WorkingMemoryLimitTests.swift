import Foundation
import XCTest
@testable import ImgCache

/// What a decoder must hold at the source's resolution is checked from the headers against
/// `DecodingLimits.maxWorkingBytes` (128 MiB) before it is allocated: an interlaced PNG is held
/// whole, a GIF's canvas (and a copy for restoring frames), a progressive JPEG's coefficients.
final class WorkingMemoryLimitTests: XCTestCase {
    private let target = DecodingOptions(targetSize: PixelSize(width: 64, height: 64))

    /// `limit`: the limit in pixels reported, the working bytes at this source's bytes a pixel.
    private func assertOverLimit(_ data: Data, _ size: PixelSize, limit: Int, line: UInt = #line) {
        XCTAssertThrowsError(try ImageDecoder.decode(.data(data), options: target), line: line) { error in
            XCTAssertEqual(error as? ImgCacheError, .dimensionsOverLimit(width: size.width, height: size.height, limit: limit), line: line)
        }
    }

    private let limit = DecodingLimits().maxWorkingBytes

    func testAnInterlacedPNGTooLargeToHoldIsRefusedWhileANonInterlacedOneStreams() throws {
        let size = PixelSize(width: 9000, height: 9000) // 81 MP: under the frame limit, 324 MB held whole
        let pixels = TestPNG.storedZlib([0] + [UInt8](repeating: 7, count: 4 * 64))
        assertOverLimit(TestPNG.file(header: TestPNG.header(size: size, interlaced: true), chunks: [("IDAT", pixels)]), size, limit: limit / 4)
        // The same size without interlacing streams row by row: it fails only for its missing rows.
        let streamed = TestPNG.file(header: TestPNG.header(size: size), chunks: [("IDAT", pixels)])
        XCTAssertThrowsError(try ImageDecoder.decode(.data(streamed), options: target)) { error in
            guard case .corruptImage(.png, _)? = error as? ImgCacheError else { return XCTFail("\(error)") }
        }
    }

    func testAGIFCanvasTooLargeToHoldTwiceIsRefused() {
        let size = PixelSize(width: 6000, height: 6000) // 36 MP: 288 MB with its restore copy
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let gif = Array("GIF89a".utf8) + le16(size.width) + le16(size.height) + [0, 0, 0]
            + [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0x00] + [0x02, 0x02, 0x44, 0x01, 0x00] + [0x3B]
        assertOverLimit(Data(gif), size, limit: limit / 8)
        XCTAssertEqual(try ImageDecoder.decode(.data(Data(gif)), options: DecodingOptions(
            targetSize: PixelSize(width: 64, height: 64), limits: DecodingLimits(maxWorkingBytes: 300 << 20))).size,
            PixelSize(width: 64, height: 64), "a larger limit decodes it")
    }

    /// A progressive JPEG's header, its first scan's header and EOI: `sampling` is the first
    /// component's factors (0x22 makes 4:2:0 colour, 0x11 4:4:4).
    private func progressiveJPEG(_ size: PixelSize, sampling: UInt8) -> Data {
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        let sof2 = [0xFF, 0xC2] + be16(17) + [8] + be16(size.height) + be16(size.width) + [3, 1, sampling, 0, 2, 0x11, 0, 3, 0x11, 0]
        // The first scan's header (DC of every component) ends what jpeg_read_header reads.
        let sos: [UInt8] = [0xFF, 0xDA] + be16(12) + [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0x00]
        return Data([0xFF, 0xD8] + sof2 + sos + [0xFF, 0xD9])
    }

    func testAProgressiveJPEGWhoseCoefficientsWouldNotFitIsRefused() {
        // 4:2:0 holds 3 bytes a pixel, in whole 16x16 MCUs: 9008x9008 makes 243 MB.
        let large = PixelSize(width: 9000, height: 9000)
        assertOverLimit(progressiveJPEG(large, sampling: 0x22), large, limit: Int(Double(limit) * 81_000_000 / (9008 * 9008 * 3)))
        // 4:4:4 holds 6: a 24-megapixel camera frame is 144 MB.
        let camera = PixelSize(width: 6000, height: 4000)
        assertOverLimit(progressiveJPEG(camera, sampling: 0x11), camera, limit: limit / 6)
        // Padding to whole blocks counts: 5790x3860 is 134,096,400 bytes, under 128 MiB, but
        // 5792x3864 blocks are 134,280,000, over it.
        let padded = PixelSize(width: 5790, height: 3860)
        assertOverLimit(progressiveJPEG(padded, sampling: 0x11), padded, limit: Int(Double(limit) * 5790 * 3860 / (5792 * 3864 * 6)))
    }

    func testA24MegapixelProgressiveJPEGIn420ColourIsDecoded() {
        // 72 MB of coefficients: under the limit, so the decode goes on and fails only on the
        // scans this file does not have.
        XCTAssertThrowsError(try ImageDecoder.decode(.data(progressiveJPEG(PixelSize(width: 6000, height: 4000), sampling: 0x22)), options: target)) { error in
            guard case .corruptImage(.jpeg, _)? = error as? ImgCacheError else { return XCTFail("\(error)") }
        }
    }
}
