import XCTest
@testable import ImgCache

final class StreamingResamplerTests: XCTestCase {
    /// The area average computed directly: each output pixel integrates the premultiplied source
    /// over its footprint, in double precision, with no streaming.
    private func referenceAreaAverage(_ source: Bitmap, _ geometry: ResizeGeometry) -> [UInt8] {
        let out = geometry.outputSize
        let stepX = geometry.sourceWidth / Double(out.width), stepY = geometry.sourceHeight / Double(out.height)
        var result = [UInt8](repeating: 0, count: out.area * 4)
        for oy in 0..<out.height {
            let y0 = geometry.sourceY + Double(oy) * stepY, y1 = y0 + stepY
            for ox in 0..<out.width {
                let x0 = geometry.sourceX + Double(ox) * stepX, x1 = x0 + stepX
                var sums = [0.0, 0.0, 0.0, 0.0], area = 0.0
                for sy in Int(y0.rounded(.down))..<Int(y1.rounded(.up)) {
                    let wy = min(y1, Double(sy + 1)) - max(y0, Double(sy))
                    for sx in Int(x0.rounded(.down))..<Int(x1.rounded(.up)) {
                        let w = wy * (min(x1, Double(sx + 1)) - max(x0, Double(sx)))
                        let i = (sy * source.width + sx) * 4
                        let alpha = Double(source.pixels[i + 3])
                        for c in 0..<3 { sums[c] += w * alpha * Double(source.pixels[i + c]) }
                        sums[3] += w * alpha
                        area += w
                    }
                }
                let o = (oy * out.width + ox) * 4
                if sums[3] > 0 {
                    for c in 0..<3 { result[o + c] = UInt8((sums[c] / sums[3]).rounded()) }
                    result[o + 3] = UInt8((sums[3] / area).rounded())
                }
            }
        }
        return result
    }

    private func resample(_ source: Bitmap, _ geometry: ResizeGeometry) -> Bitmap {
        var resampler = StreamingResampler(inputSize: source.size, geometry: geometry)
        source.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<source.height where !resampler.isComplete {
                resampler.push(row: pixels.baseAddress! + y * source.width * 4)
            }
        }
        return resampler.finish()
    }

    private func assertMatchesReference(
        source: (Int, Int), target: (Int, Int), mode: ContentMode, translucent: Bool,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let bitmap = TestImages.scene(width: source.0, height: source.1, translucent: translucent)
        let geometry = ResizeGeometry.plan(
            source: bitmap.size, target: PixelSize(width: target.0, height: target.1), mode: mode,
            allowsUpscaling: false)
        let result = resample(bitmap, geometry)
        let expected = referenceAreaAverage(bitmap, geometry)
        XCTAssertEqual(result.size, geometry.outputSize, file: file, line: line)
        var worst = 0
        for index in 0..<expected.count where expected[index & ~3 + 3] > 0 || index & 3 == 3 {
            worst = max(worst, abs(Int(result.pixels[index]) - Int(expected[index])))
        }
        XCTAssertLessThanOrEqual(worst, 1, "largest difference from the exact area average", file: file, line: line)
    }

    func testIntegerReductionsEqualTheExactAreaAverage() {
        for factor in [2, 3, 4, 8] {
            assertMatchesReference(source: (96, 64), target: (96 / factor, 64 / factor), mode: .fit, translucent: false)
        }
    }

    func testFractionalReductionsWeighPartlyCoveredPixelsByCoverage() {
        assertMatchesReference(source: (97, 61), target: (40, 40), mode: .fit, translucent: false)
        assertMatchesReference(source: (300, 200), target: (131, 131), mode: .fit, translucent: true)
        assertMatchesReference(source: (251, 199), target: (64, 30), mode: .crop, translucent: true)
        assertMatchesReference(source: (251, 199), target: (50, 50), mode: .fill, translucent: false)
    }

    func testTranslucentPixelsAreAveragedPremultiplied() throws {
        // Opaque red beside fully transparent green: the transparent colour must not bleed in.
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 0]
        let source = try Bitmap(size: PixelSize(width: 2, height: 1), pixels: pixels)
        let result = resample(source, ResizeGeometry.plan(
            source: source.size, target: PixelSize(width: 1, height: 1), mode: .fit, allowsUpscaling: false))
        XCTAssertEqual(result.pixels, [255, 0, 0, 128])
    }

    func testIdentityCopiesPixelsUnchanged() {
        let source = TestImages.scene(width: 33, height: 17, translucent: true)
        XCTAssertEqual(resample(source, .identity(source.size)), source)
    }

    func testRowsAfterTheCropRegionAreNotNeeded() {
        let source = TestImages.scene(width: 100, height: 300)
        let geometry = ResizeGeometry.plan(
            source: source.size, target: PixelSize(width: 50, height: 50), mode: .crop, allowsUpscaling: false)
        var resampler = StreamingResampler(inputSize: source.size, geometry: geometry)
        var pushed = 0
        source.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<source.height where !resampler.isComplete {
                resampler.push(row: pixels.baseAddress! + y * 400)
                pushed += 1
            }
        }
        // The centred 100x100 crop spans rows 100..<200.
        XCTAssertEqual(pushed, 200)
    }

    func testAnInputCutShortLeavesUnreachedRowsTransparent() {
        let source = TestImages.scene(width: 40, height: 40)
        var resampler = StreamingResampler(inputSize: source.size, geometry: .identity(source.size))
        source.pixels.withUnsafeBufferPointer { resampler.push(row: $0.baseAddress!) }
        let result = resampler.finish()
        XCTAssertEqual(Array(result.pixels[0..<160]), Array(source.pixels[0..<160]))
        XCTAssertTrue(result.pixels[160...].allSatisfy { $0 == 0 })
    }
}
