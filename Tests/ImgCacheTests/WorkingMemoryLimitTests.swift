import Foundation
import XCTest
@testable import ImgCache

/// What a decoder must hold at the source's resolution is checked from the headers against
/// `DecodingLimits.maxWorkingBytes` (256 MiB) before it is allocated: an interlaced PNG is held
/// whole, a GIF's canvas (and a copy for restoring frames), a progressive JPEG's coefficients.
final class WorkingMemoryLimitTests: XCTestCase {
    private let target = DecodingOptions(targetSize: PixelSize(width: 64, height: 64))

    private func assertOverLimit(_ data: Data, _ size: PixelSize, bytesPerPixel: Int, line: UInt = #line) {
        XCTAssertThrowsError(try ImageDecoder.decode(.data(data), options: target), line: line) { error in
            XCTAssertEqual(error as? ImgCacheError, .dimensionsOverLimit(
                width: size.width, height: size.height, limit: DecodingLimits().maxWorkingBytes / bytesPerPixel), line: line)
        }
    }

    func testAnInterlacedPNGTooLargeToHoldIsRefusedWhileANonInterlacedOneStreams() throws {
        let size = PixelSize(width: 9000, height: 9000) // 81 MP: under the frame limit, 324 MB held whole
        let pixels = TestPNG.storedZlib([0] + [UInt8](repeating: 7, count: 4 * 64))
        assertOverLimit(TestPNG.file(header: TestPNG.header(size: size, interlaced: true), chunks: [("IDAT", pixels)]), size, bytesPerPixel: 4)
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
        assertOverLimit(Data(gif), size, bytesPerPixel: 8)
        XCTAssertEqual(try ImageDecoder.decode(.data(Data(gif)), options: DecodingOptions(
            targetSize: PixelSize(width: 64, height: 64), limits: DecodingLimits(maxWorkingBytes: 300 << 20))).size,
            PixelSize(width: 64, height: 64), "a larger limit decodes it")
    }

    func testAProgressiveJPEGWhoseCoefficientsWouldNotFitIsRefused() {
        let size = PixelSize(width: 9000, height: 9000) // 3 components: 486 MB of coefficients
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        let sof2 = [0xFF, 0xC2] + be16(17) + [8] + be16(size.height) + be16(size.width) + [3, 1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0]
        // The first scan's header (DC of every component) ends what jpeg_read_header reads.
        let sos: [UInt8] = [0xFF, 0xDA] + be16(12) + [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0x00]
        let jpeg = [0xFF, 0xD8] + sof2 + sos + [0xFF, 0xD9]
        assertOverLimit(Data(jpeg), size, bytesPerPixel: 6)
    }
}
