import CPNG
import Foundation
import XCTest
@testable import ImgCache

/// PNG decoding on files made in the test: streaming, Adam7, truncation.
final class PNGDecoderTests: XCTestCase {
    /// `width x height` RGBA: red rising left to right, green top to bottom, blue 60, alpha 255
    /// except a half-transparent square at the top left.
    private static func pattern(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let alpha: UInt8 = x < width / 4 && y < height / 4 ? 128 : 255
                pixels += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 60, alpha]
            }
        }
        return pixels
    }

    func testNonInterlacedRowsStreamWithoutAFullResolutionBuffer() throws {
        let size = PixelSize(width: 1200, height: 900)
        let png = TestPNG.make(size: size, rgba: Self.pattern(width: size.width, height: size.height))
        let options = DecodingOptions(targetSize: PixelSize(width: 120, height: 90))
        let (bitmap, report) = try Self.decodeReporting(png, options: options)
        XCTAssertEqual(report.largestSourceBuffer, size.width * 4, "only one source row is held")
        XCTAssertEqual(bitmap.size, PixelSize(width: 120, height: 90))
        // Output pixel (100, 60) averages source columns 1000..<1010 and rows 600..<610.
        let offset = (60 * 120 + 100) * 4
        XCTAssertEqual(bitmap.pixels[offset..<offset + 4].map { Int($0) }, [214, 171, 60, 255], accuracy: 1)
    }

    func testInterlacedImageDecodesLikeNonInterlaced() throws {
        for size in [PixelSize(width: 37, height: 23), PixelSize(width: 1, height: 1), PixelSize(width: 5, height: 9)] {
            let pixels = Self.pattern(width: size.width, height: size.height)
            let plain = try ImageDecoder.decode(.data(TestPNG.make(size: size, rgba: pixels)))
            let (interlaced, report) = try Self.decodeReporting(TestPNG.make(size: size, rgba: pixels, interlaced: true))
            XCTAssertEqual(plain.frames[0].bitmap.pixels, pixels, "\(size)")
            XCTAssertTrue(interlaced.pixels == pixels, "\(size): Adam7 decode differs")
            XCTAssertEqual(report.largestSourceBuffer, size.area * 4, "Adam7 needs the whole image")
        }
    }

    func testInterlacedImageIsResampledLikeNonInterlaced() throws {
        let size = PixelSize(width: 300, height: 200)
        let pixels = Self.pattern(width: size.width, height: size.height)
        let options = DecodingOptions(targetSize: PixelSize(width: 64, height: 64), contentMode: .crop)
        let plain = try ImageDecoder.decode(.data(TestPNG.make(size: size, rgba: pixels)), options: options)
        let interlaced = try ImageDecoder.decode(.data(TestPNG.make(size: size, rgba: pixels, interlaced: true)), options: options)
        XCTAssertEqual(plain.size, PixelSize(width: 64, height: 64))
        XCTAssertTrue(plain == interlaced, "crops differ")
    }

    func testTruncatedFileIsRefusedByDefaultAndFlaggedWhenAccepted() throws {
        for interlaced in [false, true] {
            let size = PixelSize(width: 64, height: 64)
            let png = TestPNG.make(size: size, rgba: Self.pattern(width: 64, height: 64), interlaced: interlaced)
            let cut = png.prefix(png.count * 2 / 3)
            XCTAssertThrowsError(try ImageDecoder.decode(.data(cut))) { error in
                guard case ImgCacheError.corruptImage(.png, _) = error else { return XCTFail("\(error)") }
            }
            let decoded = try ImageDecoder.decode(.data(cut), options: DecodingOptions(acceptsTruncatedData: true))
            XCTAssertTrue(decoded.info.isTruncated, "interlaced \(interlaced)")
            XCTAssertEqual(decoded.size, size)
            XCTAssertEqual(decoded.frames[0].bitmap.pixels.suffix(4), [0, 0, 0, 0], "missing pixels are transparent")
        }
    }

    func testFileCutBeforeAnyRowIsRefusedEvenWhenTruncationIsAccepted() throws {
        let png = TestPNG.make(size: PixelSize(width: 8, height: 8), rgba: Self.pattern(width: 8, height: 8))
        let headerOnly = png.prefix(8 + 25)
        XCTAssertThrowsError(try ImageDecoder.decode(.data(headerOnly), options: DecodingOptions(acceptsTruncatedData: true)))
    }

    func testCompleteFileIsNotFlaggedTruncated() throws {
        let png = TestPNG.make(size: PixelSize(width: 8, height: 8), rgba: Self.pattern(width: 8, height: 8))
        let decoded = try ImageDecoder.decode(.data(png), options: DecodingOptions(acceptsTruncatedData: true))
        XCTAssertFalse(decoded.info.isTruncated)
    }

    private static func decodeReporting(
        _ data: Data, options: DecodingOptions = DecodingOptions()
    ) throws -> (Bitmap, PNGDecoder.Report) {
        var bitmap: Bitmap?
        let report = try ImageSource.data(data).withInput { input in
            try PNGDecoder.decodeReporting(input, options: options) { frame, _ in bitmap = frame.bitmap }
        }
        return (try XCTUnwrap(bitmap), report)
    }
}

/// PNG files written byte by byte in tests: chunks with their CRCs, image data in stored (not
/// compressed) deflate blocks, Adam7 when asked.
enum TestPNG {
    /// An 8-bit RGBA PNG of `rgba`, with `chunks` (type, data) placed before IDAT.
    static func make(size: PixelSize, rgba: [UInt8], interlaced: Bool = false, chunks: [(String, [UInt8])] = []) -> Data {
        var scanlines = [UInt8]()
        let passes = interlaced ? adam7 : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes where x0 < size.width && y0 < size.height {
            for y in stride(from: y0, to: size.height, by: dy) {
                scanlines.append(0)  // filter: none
                for x in stride(from: x0, to: size.width, by: dx) {
                    scanlines += rgba[(y * size.width + x) * 4..<(y * size.width + x) * 4 + 4]
                }
            }
        }
        return file(header: header(size: size, interlaced: interlaced), chunks: chunks + [("IDAT", storedZlib(scanlines))])
    }

    /// Signature, IHDR (`header`), `chunks`, IEND.
    static func file(header: [UInt8], chunks: [(String, [UInt8])]) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in [("IHDR", header)] + chunks + [("IEND", [])] { bytes += chunk(type, data) }
        return Data(bytes)
    }

    /// IHDR data for 8-bit RGBA.
    static func header(size: PixelSize, interlaced: Bool = false) -> [UInt8] {
        bigEndian(UInt32(size.width)) + bigEndian(UInt32(size.height)) + [8, 6, 0, 0, interlaced ? 1 : 0]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// `data` in a zlib stream of stored deflate blocks.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65535, data.count)
            let length = end - start
            bytes += [end == data.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8),
                      UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            bytes += data[start..<end]
            start = end
        } while start < data.count
        return bytes + bigEndian(adler32(data))
    }

    /// (first x, first y, x step, y step) of the seven Adam7 passes.
    static let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
