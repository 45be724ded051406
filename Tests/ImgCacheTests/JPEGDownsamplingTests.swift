import CJPEG
import Foundation
import XCTest
@testable import ImgCache

/// Decode-time downsampling: libjpeg's DCT scale is chosen from the target and the area filter
/// finishes to the exact size.
final class JPEGDownsamplingTests: XCTestCase {
    /// 6000x4000 of horizontal bands, 48 rows each, cycling through six colours.
    private static let large: Data = {
        let width = 6000, height = 4000
        let colours: [[UInt8]] = [[200, 30, 30], [30, 200, 30], [30, 30, 200], [220, 220, 40], [40, 220, 220], [240, 240, 240]]
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let colour = colours[(y / 48) % colours.count]
            for x in 0..<width { pixels.replaceSubrange((y * width + x) * 3..<(y * width + x) * 3 + 3, with: colour) }
        }
        return try! TestJPEG.encode(rgb: pixels, width: width, height: height)
    }()

    func testFitIn1014x474DecodesAtQuarterScaleTo711x474() throws {
        let report = try TestJPEG.decodeReporting(Self.large, options: DecodingOptions(targetSize: PixelSize(width: 1014, height: 474)))
        XCTAssertEqual(report.scaleDenominator, 4)
        XCTAssertEqual(report.decodedSize, PixelSize(width: 1500, height: 1000))
        XCTAssertEqual(report.bitmap.size, PixelSize(width: 711, height: 474))
        XCTAssertEqual(report.info.sourceSize, PixelSize(width: 6000, height: 4000))
    }

    func testCropTo1014x474GivesExactlyTheTarget() throws {
        let target = PixelSize(width: 1014, height: 474)
        let report = try TestJPEG.decodeReporting(Self.large, options: DecodingOptions(targetSize: target, contentMode: .crop))
        XCTAssertEqual(report.bitmap.size, target)
        // Cover scale 1014/6000: 6000x4000 reduces 5.9 times, so 1/2 keeps it over twice the output.
        XCTAssertEqual(report.scaleDenominator, 2)
    }

    func testDownsampledBandsKeepTheirColours() throws {
        let report = try TestJPEG.decodeReporting(Self.large, options: DecodingOptions(targetSize: PixelSize(width: 1014, height: 474)))
        // Output row 2 covers source rows 16.9...25.3, inside the first (red) band.
        let offset = (2 * 711 + 300) * 4
        let pixel = report.bitmap.pixels[offset..<offset + 4].map { Int($0) }
        XCTAssertEqual(pixel, [200, 30, 30, 255], accuracy: 6)
    }

    func testScaleDenominatorKeepsAtLeastTwiceTheOutputSize() {
        XCTAssertEqual(JPEGDecoder.scaleDenominator(reduction: 1), 1)
        XCTAssertEqual(JPEGDecoder.scaleDenominator(reduction: 3.9), 1)
        XCTAssertEqual(JPEGDecoder.scaleDenominator(reduction: 4), 2)
        XCTAssertEqual(JPEGDecoder.scaleDenominator(reduction: 8.4), 4)
        XCTAssertEqual(JPEGDecoder.scaleDenominator(reduction: 16), 8)
        XCTAssertEqual(JPEGDecoder.scaleDenominator(reduction: 100), 8)
    }

    func testNoTargetDecodesAtFullSizeWithoutScaling() throws {
        let small = try TestJPEG.encode(rgb: [UInt8](repeating: 128, count: 40 * 30 * 3), width: 40, height: 30)
        let report = try TestJPEG.decodeReporting(small, options: DecodingOptions())
        XCTAssertEqual(report.scaleDenominator, 1)
        XCTAssertEqual(report.bitmap.size, PixelSize(width: 40, height: 30))
    }
}

/// JPEG files made in tests with the library's own encoder (`imgjpeg_encode`).
enum TestJPEG {
    /// 4:2:0 JPEG of `rgb` (3 bytes a pixel) or gray (`components` 1) rows, baseline or with
    /// libjpeg's standard progressive scan script.
    static func encode(
        rgb pixels: [UInt8], width: Int, height: Int, components: Int = 3, quality: Int = 95, progressive: Bool = false
    ) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = imgjpeg_encode(pixels, Int32(width), Int32(height), Int32(components), Int32(quality), progressive ? 1 : 0, 0, nil, 0,
                                    &output, &size, &message, message.count)
        guard status == 0, let output else {
            throw ImgCacheError.invalidArgument(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(output) }
        return Data(bytes: output, count: Int(size))
    }

    /// Inserts `segment` (marker and payload, length added here) right after SOI.
    static func inserting(marker: UInt8, payload: [UInt8], into jpeg: Data) -> Data {
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return jpeg.prefix(2) + Data(segment) + jpeg.dropFirst(2)
    }

    struct Decode {
        var bitmap: Bitmap
        var info: ImageInfo
        var scaleDenominator: Int
        var decodedSize: PixelSize
    }

    static func decodeReporting(_ data: Data, options: DecodingOptions) throws -> Decode {
        var bitmap: Bitmap?
        let report = try ImageSource.data(data).withInput { input in
            try JPEGDecoder.decodeReporting(input, options: options) { frame, _ in bitmap = frame.bitmap }
        }
        return Decode(bitmap: try XCTUnwrap(bitmap), info: report.info,
                      scaleDenominator: report.scaleDenominator, decodedSize: report.decodedSize)
    }
}

/// Element-wise equality within `accuracy`.
func XCTAssertEqual(
    _ a: [Int], _ b: [Int], accuracy: Int, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(a.count, b.count, message, file: file, line: line)
    for (x, y) in zip(a, b) where abs(x - y) > accuracy {
        XCTFail("\(a) differs from \(b) by more than \(accuracy) \(message)", file: file, line: line)
        return
    }
}
