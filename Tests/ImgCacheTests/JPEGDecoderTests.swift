import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// JPEG decoding outcomes on files made in the test: colour spaces, truncation, limits and
/// malformed input.
final class JPEGDecoderTests: XCTestCase {
    /// 64x64 RGB: red rising left to right, green top to bottom, blue 100.
    private static let gradient: Data = {
        var pixels = [UInt8]()
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), 100] } }
        return try! TestJPEG.encode(rgb: pixels, width: 64, height: 64)
    }()

    func testGrayJPEGDecodesToOpaqueGrayRGBA() throws {
        let gray = (0..<32 * 16).map { UInt8(($0 % 32) * 8) }
        let data = try TestJPEG.encode(rgb: gray, width: 32, height: 16, components: 1)
        let bitmap = try ImageDecoder.decode(.data(data)).frames[0].bitmap
        XCTAssertEqual(bitmap.size, PixelSize(width: 32, height: 16))
        for index in 0..<32 * 16 {
            let pixel = bitmap.pixels[index * 4..<index * 4 + 4]
            XCTAssertEqual(Set(pixel.prefix(3)).count, 1, "R, G and B of pixel \(index) differ")
            XCTAssertEqual(pixel.last, 255)
            XCTAssertLessThanOrEqual(abs(Int(pixel.first!) - Int(gray[index])), 6, "pixel \(index)")
        }
    }

    func testColourJPEGDecodesCloseToItsSource() throws {
        let bitmap = try ImageDecoder.decode(.data(Self.gradient)).frames[0].bitmap
        let offset = (40 * 64 + 20) * 4
        XCTAssertEqual(bitmap.pixels[offset..<offset + 4].map { Int($0) }, [80, 160, 100, 255], accuracy: 6)
    }

    func testTruncatedFileIsRefusedByDefault() {
        let truncated = Self.gradient.prefix(Self.gradient.count / 2)
        XCTAssertThrowsError(try ImageDecoder.decode(.data(truncated))) { error in
            guard case ImgCacheError.corruptImage(.jpeg, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("truncated"), detail)
        }
    }

    func testTruncatedFileIsFlaggedAndGreyFilledWhenAccepted() throws {
        let truncated = Self.gradient.prefix(Self.gradient.count / 2)
        let decoded = try ImageDecoder.decode(.data(truncated), options: DecodingOptions(acceptsTruncatedData: true))
        XCTAssertTrue(decoded.info.isTruncated)
        XCTAssertEqual(decoded.size, PixelSize(width: 64, height: 64))
        let lastRow = decoded.frames[0].bitmap.pixels.suffix(64 * 4)
        XCTAssertEqual(Array(lastRow.prefix(4)), [128, 128, 128, 255], "missing rows are grey")
    }

    /// Data cut short and closed with EOI, so that the file does not end early but its scan does.
    func testScanRunningIntoEOIIsTruncated() throws {
        let cut = Self.gradient.prefix(Self.gradient.count / 2) + Data([0xFF, 0xD9])
        XCTAssertThrowsError(try ImageDecoder.decode(.data(cut)))
        let decoded = try ImageDecoder.decode(.data(cut), options: DecodingOptions(acceptsTruncatedData: true))
        XCTAssertTrue(decoded.info.isTruncated)
    }

    /// A progressive file closed with EOI after its first scans: every scan is whole, but the
    /// coefficients are not yet at full precision.
    func testProgressiveFileMissingItsLastScansIsTruncated() throws {
        var pixels = [UInt8]()
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), 100] } }
        let progressive = [UInt8](try TestJPEG.encode(rgb: pixels, width: 64, height: 64, progressive: true))
        let scans = progressive.indices.dropLast().filter { progressive[$0] == 0xFF && progressive[$0 + 1] == 0xDA }
        XCTAssertEqual(scans.count, 10, "libjpeg's standard script for YCbCr")
        let cut = Data(progressive[..<scans[4]] + [0xFF, 0xD9])
        XCTAssertThrowsError(try ImageDecoder.decode(.data(cut))) { error in
            XCTAssertEqual(error as? ImgCacheError, .corruptImage(
                format: .jpeg, detail: "progressive scans stop before the image is complete (truncated file)"))
        }
        let decoded = try ImageDecoder.decode(.data(cut), options: DecodingOptions(acceptsTruncatedData: true))
        XCTAssertTrue(decoded.info.isTruncated)
        let complete = try ImageDecoder.decode(.data(Data(progressive)), options: DecodingOptions(acceptsTruncatedData: true))
        XCTAssertFalse(complete.info.isTruncated)
    }

    /// The completeness check reads libjpeg's scan state, which the decoder's final abort frees.
    /// glibc is told to fill freed memory with 0xA5, so a check made after the abort reads that
    /// (or faults) and calls a complete progressive file truncated. Downsampling or not, and at
    /// sizes whose state sits in different heap chunks. Under AddressSanitizer (whose heap ignores
    /// mallopt) the read after the free is reported by the sanitizer instead.
    func testACompleteProgressiveFileIsJudgedBeforeItsScanStateIsFreed() throws {
        // glibc's mallopt(M_PERTURB = -6, byte), which Swift's Glibc module does not import.
        typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(try XCTUnwrap(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")), to: MallocOption.self)
        if !Sanitizer.isActive {
            XCTAssertEqual(mallopt(-6, 0xA5), 1)
        }
        defer { if !Sanitizer.isActive { _ = mallopt(-6, 0) } }
        for side in [64, 700] {
            var pixels = [UInt8]()
            for y in 0..<side { for x in 0..<side { pixels += [UInt8(x % 256), UInt8(y % 256), 100] } }
            let progressive = try TestJPEG.encode(rgb: pixels, width: side, height: side, progressive: true)
            for target in [nil, PixelSize(width: side / 8, height: side / 8)] {
                let options = DecodingOptions(targetSize: target, acceptsTruncatedData: true)
                let decoded = try ImageDecoder.decode(.data(progressive), options: options)
                XCTAssertFalse(decoded.info.isTruncated, "\(side) px, target \(String(describing: target))")
                XCTAssertEqual(decoded.frames[0].bitmap.size, target ?? PixelSize(width: side, height: side))
            }
        }
    }

    func testCompleteFileIsNotFlaggedTruncated() throws {
        let decoded = try ImageDecoder.decode(.data(Self.gradient), options: DecodingOptions(acceptsTruncatedData: true))
        XCTAssertFalse(decoded.info.isTruncated)
    }

    func testDeclaredDimensionsOverThePixelLimitAreRefusedBeforeDecoding() throws {
        let decoding = { try ImageDecoder.decode(.data(Self.withDeclaredSize(width: 60000, height: 60000))) }
        XCTAssertThrowsError(try decoding()) { error in
            XCTAssertEqual(error as? ImgCacheError,
                           .dimensionsOverLimit(width: 60000, height: 60000, limit: DecodingLimits().maxPixelsPerFrame))
        }
    }

    /// libjpeg-turbo itself refuses sides over 65500 while reading the header.
    func testDeclared65535x65535IsRefusedByLibjpegWhileReadingTheHeader() throws {
        XCTAssertThrowsError(try ImageDecoder.decode(.data(Self.withDeclaredSize(width: 65535, height: 65535)))) { error in
            XCTAssertEqual(error as? ImgCacheError,
                           .corruptImage(format: .jpeg, detail: "Maximum supported image dimension is 65500 pixels"))
        }
    }

    /// The gradient with the SOF0 size changed.
    private static func withDeclaredSize(width: Int, height: Int) throws -> Data {
        var bytes = [UInt8](gradient)
        let sof = try XCTUnwrap(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange(sof + 5..<sof + 9, with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return Data(bytes)
    }

    func testMalformedFilesFailWithTypedErrors() throws {
        let zeroWidth = [UInt8](try Self.withDeclaredSize(width: 0, height: 64))
        let sof = try XCTUnwrap(zeroWidth.indices.first { zeroWidth[$0] == 0xFF && zeroWidth[$0 + 1] == 0xC0 })
        let header = [UInt8](Self.gradient.prefix(sof))
        let cases: [(String, [UInt8])] = [
            ("SOI only", [0xFF, 0xD8, 0xFF]),
            ("SOI and EOI", [0xFF, 0xD8, 0xFF, 0xD9]),
            ("headers without a frame", header + [0xFF, 0xD9]),
            ("zero width", zeroWidth),
            ("padding only", [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 5000)),
        ]
        for (name, bytes) in cases {
            for options in [DecodingOptions(), DecodingOptions(acceptsTruncatedData: true)] {
                XCTAssertThrowsError(try ImageDecoder.decode(.data(Data(bytes)), options: options), name) { error in
                    guard case ImgCacheError.corruptImage(.jpeg, _) = error else { return XCTFail("\(name): \(error)") }
                }
            }
        }
    }
}
