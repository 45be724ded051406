import Foundation
import TestSupport
import XCTest
@testable import ImgCache

final class EncoderTests: XCTestCase {
    func testPNGIsRGBWhenOpaqueAndRGBAOtherwiseAndRoundTripsExactly() throws {
        for translucent in [false, true] {
            let bitmap = TestImages.scene(width: 64, height: 48, translucent: translucent)
            let data = try PNGEncoder.encode(bitmap)
            // IHDR colour type sits at byte 25: 2 = RGB, 6 = RGBA.
            XCTAssertEqual(data[25], translucent ? 6 : 2)
            XCTAssertEqual(try ImageDecoder.decode(.data(data)).frames[0].bitmap, bitmap)
        }
    }

    func testJPEGQualityTradesSizeForFidelity() throws {
        var smooth = [UInt8]()
        for y in 0..<192 { for x in 0..<256 { smooth += [UInt8(x), UInt8(y), UInt8((x + y) / 2), 255] } }
        let bitmap = try Bitmap(size: PixelSize(width: 256, height: 192), pixels: smooth)
        let low = try JPEGEncoder.encode(bitmap, quality: 30)
        let high = try JPEGEncoder.encode(bitmap, quality: 95)
        XCTAssertLessThan(low.count, high.count)
        let lowPSNR = PSNR.of(try ImageDecoder.decode(.data(low)).frames[0].bitmap.pixels, bitmap.pixels)
        let highPSNR = PSNR.of(try ImageDecoder.decode(.data(high)).frames[0].bitmap.pixels, bitmap.pixels)
        XCTAssertGreaterThan(highPSNR, lowPSNR + 3)
        XCTAssertGreaterThan(highPSNR, 40)
    }

    func testJPEGFlattensTranslucentPixelsOverTheBackground() throws {
        let half = try Bitmap(size: PixelSize(width: 16, height: 16), pixels: [UInt8](repeating: 0, count: 16 * 16 * 4))
        let decoded = try ImageDecoder.decode(.data(JPEGEncoder.encode(half, quality: 100, background: (0, 0, 255))))
        let pixel = Array(decoded.frames[0].bitmap.pixels[0..<4])
        XCTAssertLessThanOrEqual(abs(Int(pixel[0]) - 0), 2)
        XCTAssertGreaterThanOrEqual(pixel[2], 252)
        XCTAssertEqual(pixel[3], 255)
    }

    func testOutOfRangeSettingsAreRejected() {
        let bitmap = TestImages.scene(width: 4, height: 4)
        XCTAssertThrowsError(try JPEGEncoder.encode(bitmap, quality: 0)) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("JPEG quality 0 is not in 1...100"))
        }
        XCTAssertThrowsError(try PNGEncoder.encode(bitmap, compressionLevel: 13)) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("PNG compression level 13 is not in 0...12"))
        }
    }

    func testPNGRowsUseEveryFilterAndEveryLevelRoundTrips() throws {
        // Rows that each filter suits: flat (None/Up), a horizontal ramp (Sub), a vertical ramp
        // (Up), a diagonal (Average/Paeth), and noise.
        var pixels = [UInt8]()
        for y in 0..<40 {
            for x in 0..<50 {
                let value: Int
                switch y / 8 {
                case 0: value = 200
                case 1: value = x * 5
                case 2: value = y * 6
                case 3: value = (x + y) * 3
                default: value = (x * 7919 + y * 104_729) % 251
                }
                pixels += [UInt8(value % 256), UInt8((value * 3) % 256), UInt8(255 - value % 256), UInt8(128 + value % 128)]
            }
        }
        let bitmap = try Bitmap(size: PixelSize(width: 50, height: 40), pixels: pixels)
        for level in [0, 1, 6, 12] {
            let data = try PNGEncoder.encode(bitmap, compressionLevel: level)
            XCTAssertEqual(try ImageDecoder.decode(.data(data)).frames[0].bitmap, bitmap, "level \(level)")
        }
        XCTAssertEqual(PNGRowFilter.predictPaeth(10, 20, 15), 15, "p = 15: nearest is the upper left")
        XCTAssertEqual(PNGRowFilter.predictPaeth(10, 20, 5), 20, "p = 25: nearest is above")
        XCTAssertEqual(PNGRowFilter.predictPaeth(10, 20, 25), 10, "p = 5: nearest is left")
        let filters = Set(PNGRowFilter.filter(bitmap, channels: 4).enumerated().compactMap { $0.offset % 201 == 0 ? $0.element : nil })
        XCTAssertTrue(filters.count >= 3, "filters used: \(filters.sorted())")
    }
}
