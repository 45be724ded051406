import Foundation
import TestSupport
import XCTest
@testable import ImgCache

final class GIFEncoderTests: XCTestCase {
    private let everyFrame = DecodingOptions(maxFrames: 10_000, frameBudgetBytes: DecodingOptions.frameBudgets.upperBound)

    func testFramesOfAtMost256ColoursRoundTripLosslessly() throws {
        let size = PixelSize(width: 37, height: 23)
        var generator = SeededGenerator(seed: 7)
        let colours: [[UInt8]] = (0..<255).map { _ in
            let rgb = UInt32.random(in: 0...0xFF_FFFF, using: &generator)
            return [UInt8(rgb >> 16), UInt8(rgb >> 8 & 0xFF), UInt8(rgb & 0xFF), 255]
        }
        var frames: [ImageFrame] = []
        for index in 0..<3 {
            var pixels: [UInt8] = []
            for pixel in 0..<size.area {
                // Every colour appears; frame 1 also has transparent pixels (with colour left in them).
                if index == 1 && pixel % 5 == 0 { pixels += [9, 9, 9, 0] } else { pixels += colours[(pixel + index) % colours.count] }
            }
            frames.append(ImageFrame(bitmap: try Bitmap(size: size, pixels: pixels), delayCentiseconds: index * 10))
        }
        let image = DecodedImage(info: ImageInfo(format: .gif, sourceSize: size, loopCount: 0), frames: frames)
        let decoded = try ImageDecoder.decode(.data(try GIFEncoder.encode(image)), options: everyFrame)
        XCTAssertEqual(decoded.frames.count, 3)
        for (original, copy) in zip(frames, decoded.frames) {
            XCTAssertEqual(copy.bitmap, Self.normalised(original.bitmap))
            XCTAssertEqual(copy.delayCentiseconds, original.delayCentiseconds)
        }
        XCTAssertEqual(decoded.info.loopCount, 0)
    }

    func testExactly256OpaqueColoursAreLossless() throws {
        let size = PixelSize(width: 16, height: 16)
        var pixels: [UInt8] = []
        for value in 0..<256 { pixels += [UInt8(value), UInt8(255 - value), UInt8(value / 2), 255] }
        let bitmap = try Bitmap(size: size, pixels: pixels)
        XCTAssertEqual(try roundTrip(bitmap), bitmap)
    }

    func testAlphaBelow128IsTransparentAndAbove127IsOpaque() throws {
        let bitmap = try Bitmap(size: PixelSize(width: 3, height: 1), pixels: [10, 20, 30, 127, 40, 50, 60, 128, 70, 80, 90, 255])
        XCTAssertEqual(try roundTrip(bitmap).pixels, [0, 0, 0, 0, 40, 50, 60, 255, 70, 80, 90, 255])
    }

    func testTransparentFrameAfterAnOpaqueOneShowsNothingOfTheFirst() throws {
        let size = PixelSize(width: 2, height: 1)
        let encoder = try GIFEncoder(size: size, loopCount: 0)
        try encoder.add(ImageFrame(bitmap: try Bitmap(size: size, pixels: [255, 0, 0, 255, 255, 0, 0, 255])))
        try encoder.add(ImageFrame(bitmap: try Bitmap(size: size, pixels: [0, 0, 0, 0, 0, 255, 0, 255])))
        let decoded = try ImageDecoder.decode(.data(try encoder.finish()), options: everyFrame)
        XCTAssertEqual(decoded.frames[1].bitmap.pixels, [0, 0, 0, 0, 0, 255, 0, 255])
    }

    func testLoopCountRoundTripsAndIsAbsentWhenNil() throws {
        let size = PixelSize(width: 1, height: 1)
        let frame = ImageFrame(bitmap: try Bitmap(size: size, pixels: [1, 2, 3, 255]))
        for loopCount in [nil, 0, 7, 65535] as [Int?] {
            let image = DecodedImage(info: ImageInfo(format: .gif, sourceSize: size, loopCount: loopCount), frames: [frame, frame])
            let decoded = try ImageDecoder.decode(.data(try GIFEncoder.encode(image)), options: everyFrame)
            XCTAssertEqual(decoded.info.loopCount, loopCount)
            XCTAssertEqual(decoded.frames.count, 2)
        }
    }

    func testDelaysRoundTripClampedToTheFieldRange() throws {
        let size = PixelSize(width: 1, height: 1)
        let bitmap = try Bitmap(size: size, pixels: [1, 2, 3, 255])
        let encoder = try GIFEncoder(size: size, loopCount: nil)
        for delay in [0, 1, 3, 250, 70_000, -5] { try encoder.add(ImageFrame(bitmap: bitmap, delayCentiseconds: delay)) }
        let decoded = try ImageDecoder.decode(.data(try encoder.finish()), options: everyFrame)
        XCTAssertEqual(decoded.frames.map(\.delayCentiseconds), [0, 1, 3, 250, 65535, 0])
    }

    func testEachFrameIsWrittenWhenAdded() throws {
        let size = PixelSize(width: 8, height: 8)
        let encoder = try GIFEncoder(size: size, loopCount: 0)
        let header = encoder.byteCount
        try encoder.add(ImageFrame(bitmap: Bitmap(size: size)))
        let afterOne = encoder.byteCount
        try encoder.add(ImageFrame(bitmap: Bitmap(size: size)))
        XCTAssertGreaterThan(afterOne, header)
        XCTAssertGreaterThan(encoder.byteCount, afterOne)
        let data = try encoder.finish()
        XCTAssertEqual(data.count, encoder.byteCount)
        XCTAssertEqual(data.last, 0x3B)
        XCTAssertEqual(Array(data.prefix(6)), Array("GIF89a".utf8))
    }

    func testManyColoursAreQuantizedCloselyWithoutDithering() throws {
        // A smooth 3-channel gradient: 64 x 64 = 4096 distinct colours.
        let size = PixelSize(width: 64, height: 64)
        var pixels: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2), 255] } }
        let bitmap = try Bitmap(size: size, pixels: pixels)
        let copy = try roundTrip(bitmap)
        let psnr = PSNR.opaqueRGB(bitmap, copy)
        print("[gif] 4096-colour gradient PSNR \(String(format: "%.2f", psnr)) dB")
        XCTAssertGreaterThan(psnr, 33)
    }

    func testManyColoursWithTransparencyKeepATransparentEntry() throws {
        let size = PixelSize(width: 64, height: 64)
        var pixels: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), 128, x < 8 ? 0 : 255] } }
        let copy = try roundTrip(try Bitmap(size: size, pixels: pixels))
        for y in 0..<64 {
            XCTAssertEqual(copy.pixels[(y * 64) * 4 + 3], 0)
            XCTAssertEqual(copy.pixels[(y * 64 + 8) * 4 + 3], 255)
        }
        XCTAssertGreaterThan(PSNR.opaqueRGB(try Bitmap(size: size, pixels: pixels), copy), 33)
    }

    func testQuantizingAPhotoSizedFrameIsFast() throws {
        let size = PixelSize(width: 510, height: 383)
        var generator = SeededGenerator(seed: 3)
        var pixels = [UInt8](repeating: 255, count: size.area * 4)
        for index in 0..<size.area {
            let x = index % size.width, y = index / size.width, noise = Int.random(in: -12...12, using: &generator)
            pixels[index * 4] = UInt8(clamping: x / 2 + noise)
            pixels[index * 4 + 1] = UInt8(clamping: y / 2 - noise)
            pixels[index * 4 + 2] = UInt8(clamping: (x + y) / 4 + noise)
        }
        let bitmap = try Bitmap(size: size, pixels: pixels)
        var quantizer = ColorQuantizer()
        _ = quantizer.quantize(bitmap)
        let start = Date()
        let result = quantizer.quantize(bitmap)
        let milliseconds = Date().timeIntervalSince(start) * 1000
        print("[gif] quantizing a 510x383 frame: \(String(format: "%.1f", milliseconds)) ms")
        XCTAssertEqual(result.palette.count, 256)
        XCTAssertEqual(result.indices.count, size.area)
        #if !DEBUG
        XCTAssertLessThan(milliseconds, 50)
        #endif
    }

    func testInvalidUseIsRejected() throws {
        let size = PixelSize(width: 2, height: 2)
        XCTAssertThrowsError(try GIFEncoder(size: PixelSize(width: 70_000, height: 1), loopCount: nil))
        XCTAssertThrowsError(try GIFEncoder(size: size, loopCount: 70_000))
        let encoder = try GIFEncoder(size: size, loopCount: nil)
        XCTAssertThrowsError(try encoder.add(ImageFrame(bitmap: Bitmap(size: PixelSize(width: 3, height: 2))))) {
            guard case ImgCacheError.invalidArgument = $0 else { return XCTFail("\($0)") }
        }
        try encoder.add(ImageFrame(bitmap: Bitmap(size: size)))
        _ = try encoder.finish()
        XCTAssertThrowsError(try encoder.add(ImageFrame(bitmap: Bitmap(size: size))))
        XCTAssertThrowsError(try encoder.finish())
        let empty = DecodedImage(info: ImageInfo(format: .gif, sourceSize: size), frames: [])
        XCTAssertThrowsError(try GIFEncoder.encode(empty))
    }

    // MARK: Helpers

    private func roundTrip(_ bitmap: Bitmap) throws -> Bitmap {
        let encoder = try GIFEncoder(size: bitmap.size, loopCount: nil)
        try encoder.add(ImageFrame(bitmap: bitmap))
        return try ImageDecoder.decode(.data(try encoder.finish())).frames[0].bitmap
    }

    /// The bitmap as a GIF shows it: alpha < 128 becomes (0, 0, 0, 0), anything else opaque.
    static func normalised(_ bitmap: Bitmap) -> Bitmap {
        var pixels = bitmap.pixels
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            if pixels[offset + 3] < 128 { pixels.replaceSubrange(offset..<(offset + 4), with: [0, 0, 0, 0]) } else { pixels[offset + 3] = 255 }
        }
        return Bitmap(unchecked: bitmap.size, pixels: pixels)
    }
}
