import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// WebP written by `WebPEncoder`, read back by libwebp's own tools (dwebp for stills, Pillow's
/// WebPAnimDecoder frame by frame for animations) and by imgcache's decoder: lossless exactly,
/// lossy within the codec's loss.
final class WebPEncoderTests: XCTestCase {
    /// `bitmap` as libwebp's lossless encoder leaves it: fully transparent pixels transparent black.
    private func losslessExpectation(_ bitmap: Bitmap) -> Bitmap {
        var pixels = bitmap.pixels
        for offset in stride(from: 0, to: pixels.count, by: 4) where pixels[offset + 3] == 0 {
            pixels.replaceSubrange(offset..<offset + 4, with: [0, 0, 0, 0])
        }
        return Bitmap(unchecked: bitmap.size, pixels: pixels)
    }

    /// dwebp's full-size RGBA decode of `data`.
    private func dwebp(_ data: Data, _ bench: WebPWorkbench, _ name: String) throws -> Bitmap {
        try data.write(to: bench.folder.appendingPathComponent(name))
        return try ImageDecoder.decode(.file(path: bench.dwebpPNG(bench.path(name)))).frames[0].bitmap
    }

    /// Smooth gradients, as a photograph's areas are (the scene's noise and hard red tiles are
    /// what 4:2:0 loses most), moved right by `shift` pixels.
    private func smooth(width: Int, height: Int, shift: Int = 0) -> Bitmap {
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let u = (x + shift) * 255 / (width + 8), v = y * 255 / height
                pixels += [UInt8(u), UInt8(v), UInt8((u + v) / 2), 255]
            }
        }
        return Bitmap(unchecked: PixelSize(width: width, height: height), pixels: pixels)
    }

    /// The RIFF chunk after "WEBP": "VP8 " (lossy), "VP8L" (lossless) or "VP8X" (extended).
    private func firstChunk(_ data: Data) -> String { String(decoding: data[12..<16], as: UTF8.self) }

    func testLosslessStillDecodesWithDwebpToExactlyThePixelsEncoded() throws {
        let bench = try WebPWorkbench()
        let bitmap = TestImages.scene(width: 64, height: 48, translucent: true)
        let data = try WebPEncoder.encode(bitmap, compression: .lossless)
        XCTAssertEqual(firstChunk(data), "VP8L")
        let expected = losslessExpectation(bitmap)
        XCTAssertEqual(WebPWorkbench.maxDifference(try dwebp(data, bench, "lossless.webp"), expected), 0)
        XCTAssertEqual(WebPWorkbench.maxDifference(try ImageDecoder.decode(.data(data)).frames[0].bitmap, expected), 0)
    }

    func testLossyStillDecodesWithDwebpWithinTheCodecsLossAndQualityTradesSizeForFidelity() throws {
        let bench = try WebPWorkbench()
        let bitmap = smooth(width: 256, height: 192)
        var results: [(bytes: Int, psnr: Double)] = []
        for quality in [30, 90] {
            let data = try WebPEncoder.encode(bitmap, compression: .lossy(quality: quality))
            XCTAssertEqual(firstChunk(data), "VP8 ")
            let decoded = try dwebp(data, bench, "q\(quality).webp")
            XCTAssertTrue(decoded.isOpaque)
            // imgcache's decoder gives dwebp's pixels exactly (fancy upsampling, as dwebp).
            XCTAssertEqual(try ImageDecoder.decode(.data(data)).frames[0].bitmap, decoded)
            results.append((data.count, PSNR.of(decoded.pixels, bitmap.pixels)))
        }
        XCTAssertLessThan(results[0].bytes, results[1].bytes)
        XCTAssertGreaterThan(results[0].psnr, 29)
        XCTAssertGreaterThan(results[1].psnr, 33)
        XCTAssertGreaterThan(results[1].psnr, results[0].psnr + 2)
    }

    func testLossyStillWithAlphaKeepsTheAlphaExactly() throws {
        let bench = try WebPWorkbench()
        let bitmap = TestImages.scene(width: 64, height: 48, translucent: true)
        let data = try WebPEncoder.encode(bitmap, compression: .lossy(quality: 80))
        XCTAssertEqual(firstChunk(data), "VP8X")
        let decoded = try dwebp(data, bench, "alpha.webp")
        XCTAssertEqual(stride(from: 3, to: decoded.pixels.count, by: 4).map { decoded.pixels[$0] },
                       stride(from: 3, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] })
        XCTAssertGreaterThan(WebPWorkbench.premultipliedPSNR(decoded, bitmap), 30)
    }

    /// Five distinct 40x30 frames shown for 40, 80, 100, 20 and 500 ms: translucent scenes, or
    /// opaque gradients moving right.
    private func animation(translucent: Bool, loopCount: Int?) -> DecodedImage {
        let delays = [4, 8, 10, 2, 50]
        let frames = delays.enumerated().map { index, delay in
            ImageFrame(
                bitmap: translucent
                    ? TestImages.scene(width: 40, height: 30, translucent: true, seed: UInt64(index + 1))
                    : smooth(width: 40, height: 30, shift: index * 2),
                delayCentiseconds: delay)
        }
        return DecodedImage(
            info: ImageInfo(format: .gif, sourceSize: PixelSize(width: 40, height: 30), loopCount: loopCount), frames: frames)
    }

    func testLosslessAnimationDecodesWithPillowFrameByFrameExactly() throws {
        let bench = try WebPWorkbench()
        let image = animation(translucent: true, loopCount: 3)
        let data = try WebPEncoder.encode(image, compression: .lossless)
        try data.write(to: bench.folder.appendingPathComponent("anim.webp"))
        let reference = try bench.pillowFrames(bench.path("anim.webp"))
        XCTAssertEqual(reference.pngs.count, image.frames.count)
        XCTAssertEqual(reference.durations, [40, 80, 100, 20, 500])
        XCTAssertEqual(reference.loop, 3)
        for (index, (frame, png)) in zip(image.frames, reference.pngs).enumerated() {
            let decoded = try ImageDecoder.decode(.file(path: png)).frames[0].bitmap
            XCTAssertEqual(WebPWorkbench.maxDifference(decoded, losslessExpectation(frame.bitmap)), 0, "frame \(index)")
        }
        // imgcache's own decoder reads the same frames, delays and loop count.
        let decoded = try ImageDecoder.decode(.data(data), options: DecodingOptions(maxFrames: 100))
        XCTAssertEqual(decoded.info.loopCount, 3)
        XCTAssertEqual(decoded.frames.map(\.delayCentiseconds), [4, 8, 10, 2, 50])
        for (index, (frame, original)) in zip(decoded.frames, image.frames).enumerated() {
            XCTAssertEqual(WebPWorkbench.maxDifference(frame.bitmap, losslessExpectation(original.bitmap)), 0, "frame \(index)")
        }
    }

    func testLossyAnimationDecodesWithPillowWithinTheCodecsLossAndPlaysOnceWithoutALoopCount() throws {
        let bench = try WebPWorkbench()
        let image = animation(translucent: false, loopCount: nil)
        let data = try WebPEncoder.encode(image, compression: .lossy(quality: 90))
        try data.write(to: bench.folder.appendingPathComponent("lossy.webp"))
        let reference = try bench.pillowFrames(bench.path("lossy.webp"))
        XCTAssertEqual(reference.pngs.count, 5)
        XCTAssertEqual(reference.durations, [40, 80, 100, 20, 500])
        XCTAssertEqual(reference.loop, 1)
        for (index, (frame, png)) in zip(image.frames, reference.pngs).enumerated() {
            let decoded = try ImageDecoder.decode(.file(path: png)).frames[0].bitmap
            XCTAssertGreaterThan(PSNR.of(decoded.pixels, frame.bitmap.pixels), 30, "frame \(index)")
        }
    }

    func testTheICCProfileIsStoredInAnICCPChunkOfStillsAndAnimations() throws {
        let profile = ColorFixtures.displayP3
        let still = try WebPEncoder.encode(TestImages.scene(width: 16, height: 16), compression: .lossy(quality: 80), iccProfile: profile)
        let animated = try WebPEncoder.encode(animation(translucent: false, loopCount: 0), compression: .lossless, iccProfile: profile)
        for data in [still, animated] {
            XCTAssertEqual(firstChunk(data), "VP8X")
            XCTAssertEqual(data.withUnsafeBytes { WebPDecoder.iccProfile(in: $0) }, profile)
        }
        XCTAssertEqual(try ImageDecoder.decode(.data(animated), options: DecodingOptions(maxFrames: 10)).frames.count, 5)
    }

    func testOutOfRangeSettingsAreRefused() {
        let bitmap = TestImages.scene(width: 4, height: 4)
        XCTAssertThrowsError(try WebPEncoder.encode(bitmap, compression: .lossy(quality: 0))) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("WebP quality 0 is not in 1...100"))
        }
        XCTAssertThrowsError(try WebPEncoder.encode(bitmap, compression: .lossless, iccProfile: [])) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("an ICC profile of 0 bytes is not in 1...\(ColorProfile.maxByteCount)"))
        }
        let wide = Bitmap(size: PixelSize(width: WebPEncoder.maxSide + 1, height: 1))
        XCTAssertThrowsError(try WebPEncoder.encode(wide, compression: .lossless)) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("a WebP is at most 16383 pixels a side, not 16384x1"))
        }
        var looping = animation(translucent: false, loopCount: 70_000)
        XCTAssertThrowsError(try WebPEncoder.encode(looping, compression: .lossless)) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("a WebP loop count must be 0...65535, not 70000"))
        }
        looping.info.loopCount = 0
        looping.frames[2].bitmap = TestImages.scene(width: 8, height: 8)
        XCTAssertThrowsError(try WebPEncoder.encode(looping, compression: .lossless)) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("frame is 8x8, the WebP is 40x30"))
        }
    }
}
