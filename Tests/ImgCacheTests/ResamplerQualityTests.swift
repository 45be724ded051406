import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// The decode-time downsampling against an independent area average of the full decode made with
/// Pillow (see Tests/Scripts/box_reference.py). The issue asks for PSNR >= 40 dB for factors 2 to 8
/// and for non-integer ratios. PSNR is taken over premultiplied RGBA (colour x alpha), which is what
/// a viewer composites: straight colour under near-zero alpha is invisible and ill-defined.
final class ResamplerQualityTests: XCTestCase {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/box_reference.py")

    /// A reduction from a source side to a target side, as a ratio `source / target = reduction`,
    /// with the enlargement that makes it a whole number for the reference.
    private struct Case {
        let target: PixelSize
        let upsample: Int
    }

    private func referenceAreaAverage(_ path: String, _ size: PixelSize, upsample: Int) throws -> [UInt8] {
        let output = path + ".\(size).rgba"
        let result = try ProductRunner.runTool(
            "python3", [Self.script.path, path, "\(size.width)", "\(size.height)", "\(upsample)", output])
        if result.errors.contains("No module named 'PIL'") {
            throw XCTSkip("Pillow is not installed (make setup installs it)")
        }
        XCTAssertEqual(result.status, 0, result.errors)
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// Decodes `path` to `testCase.target` and returns the PSNR against the area average of
    /// `fullDecode` (a PNG of the full-size decode; `path` itself by default).
    private func measure(_ path: String, _ testCase: Case, fullDecode: String? = nil,
                         file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        let decoded = try ImageDecoder.decode(.file(path: path), options: DecodingOptions(targetSize: testCase.target))
        XCTAssertEqual(decoded.size, testCase.target, file: file, line: line)
        let reference = try referenceAreaAverage(fullDecode ?? path, testCase.target, upsample: testCase.upsample)
        let value = PSNR.of(PSNR.premultiplied(decoded.frames[0].bitmap.pixels), reference)
        XCTAssertGreaterThanOrEqual(value, 40, "PSNR at \(testCase.target)", file: file, line: line)
        return value
    }

    private func cases(width: Int, height: Int, fractional: [(target: Int, upsample: Int)]) -> [Case] {
        let whole = (2...8).filter { width % $0 == 0 && height % $0 == 0 }
            .map { Case(target: PixelSize(width: width / $0, height: height / $0), upsample: 1) }
        let other = fractional.map {
            Case(target: PixelSize(width: $0.target, height: $0.target * height / width), upsample: $0.upsample)
        }
        return whole + other
    }

    func testPNGDownsamplingIsWithin40dBOfTheExactAreaAverage() throws {
        // 1200x900 to 700x525 is 12/7, to 900x675 is 4/3, to 480x360 is 5/2, to 320x240 is 15/4.
        let sizes = cases(width: 1200, height: 900, fractional: [(700, 7), (900, 3), (480, 2), (320, 4)])
        var lowest = Double.infinity
        for translucent in [false, true] {
            let path = try TestImages.pngFile(TestImages.scene(width: 1200, height: 900, translucent: translucent, seed: 7))
            for testCase in sizes { lowest = min(lowest, try measure(path, testCase)) }
        }
        print("[quality] PNG area filter vs exact area average: lowest PSNR \(String(format: "%.1f", lowest)) dB over \(sizes.count * 2) sizes")
    }

    func testJPEGDecodeTimeScalingIsWithin40dBOfTheAreaAverageOfTheFullDecode() throws {
        let png = try TestImages.pngFile(TestImages.scene(width: 1600, height: 1200, seed: 3))
        let bitmap = try ImageDecoder.decode(.file(path: png)).frames[0].bitmap
        let jpegPath = png.replacingOccurrences(of: ".png", with: ".jpg")
        try JPEGEncoder.encode(bitmap, quality: 95).write(to: URL(fileURLWithPath: jpegPath))
        // The reference averages the full-size decode (which the JPEG's own full decode gives).
        let fullDecode = try TestImages.pngFile(ImageDecoder.decode(.file(path: jpegPath)).frames[0].bitmap)
        // 1600x1200 to 1000x750 is 8/5, to 640x480 is 5/2, to 500x375 is 16/5.
        var lowest = Double.infinity
        for testCase in cases(width: 1600, height: 1200, fractional: [(1000, 5), (640, 2), (500, 5)]) {
            lowest = min(lowest, try measure(jpegPath, testCase, fullDecode: fullDecode))
        }
        print("[quality] JPEG DCT scaling + area filter vs area average of the full decode: lowest PSNR \(String(format: "%.1f", lowest)) dB")
    }
}
