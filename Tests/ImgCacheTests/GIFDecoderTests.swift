import Foundation
import TestSupport
import XCTest
@testable import ImgCache

final class GIFDecoderTests: XCTestCase {
    private let red: [UInt8] = [255, 0, 0, 255]
    private let green: [UInt8] = [0, 255, 0, 255]
    private let blue: [UInt8] = [0, 0, 255, 255]
    private let clear: [UInt8] = [0, 0, 0, 0]
    /// Palette for the files below: 0 red, 1 green, 2 blue, 3 white.
    private let colors: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF]
    private let everyFrame = DecodingOptions(maxFrames: 10_000, frameBudgetBytes: DecodingOptions.frameBudgets.upperBound)

    // MARK: Compositing

    func testCanvasStartsTransparentNotBackgroundColour() throws {
        var file = GIFFile(width: 4, height: 4, palette: colors, background: 2)
        file.frame(x: 1, y: 1, width: 2, height: 2, pixels: [0, 0, 0, 0])
        file.trailer()
        let bitmap = try decode(file).frames[0].bitmap
        XCTAssertEqual(pixel(bitmap, 0, 0), clear)
        XCTAssertEqual(pixel(bitmap, 1, 1), red)
        XCTAssertEqual(pixel(bitmap, 3, 3), clear)
    }

    func testDisposalNoneKeepsTheFrameUnderTheNext() throws {
        let frames = try decode(twoFrames(firstDisposal: 1)).frames
        XCTAssertEqual(pixel(frames[1].bitmap, 0, 0), red, "first frame still shows")
        XCTAssertEqual(pixel(frames[1].bitmap, 1, 1), green)
    }

    func testDisposalBackgroundClearsTheRectangleToTransparent() throws {
        let frames = try decode(twoFrames(firstDisposal: 2)).frames
        XCTAssertEqual(pixel(frames[0].bitmap, 0, 0), red)
        XCTAssertEqual(pixel(frames[1].bitmap, 0, 0), clear, "cleared, not filled with background blue")
        XCTAssertEqual(pixel(frames[1].bitmap, 1, 1), green)
    }

    func testDisposalPreviousRestoresTheCanvasAsItWasBeforeTheFrame() throws {
        var file = GIFFile(width: 2, height: 2, palette: colors, background: 2)
        file.frame(width: 2, height: 2, pixels: [0, 0, 0, 0])
        file.control(disposal: 3)
        file.frame(width: 1, height: 1, pixels: [1])
        file.frame(x: 1, y: 1, width: 1, height: 1, pixels: [3])
        file.trailer()
        let frames = try decode(file).frames
        XCTAssertEqual(pixel(frames[1].bitmap, 0, 0), green)
        XCTAssertEqual(pixel(frames[2].bitmap, 0, 0), red, "restored to the first frame's red")
        XCTAssertEqual(pixel(frames[2].bitmap, 1, 1), [255, 255, 255, 255])
    }

    func testDisposalPreviousOnTheFirstFrameRestoresTransparency() throws {
        var file = GIFFile(width: 2, height: 1, palette: colors)
        file.control(disposal: 3)
        file.frame(width: 2, height: 1, pixels: [0, 0])
        file.frame(width: 1, height: 1, pixels: [1])
        file.trailer()
        let frames = try decode(file).frames
        XCTAssertEqual(pixel(frames[1].bitmap, 0, 0), green)
        XCTAssertEqual(pixel(frames[1].bitmap, 1, 0), clear)
    }

    func testTransparentIndexLeavesTheCanvasShowing() throws {
        var file = GIFFile(width: 2, height: 1, palette: colors)
        file.frame(width: 2, height: 1, pixels: [0, 0])
        file.control(transparent: 2)
        file.frame(width: 2, height: 1, pixels: [2, 1])
        file.trailer()
        let frames = try decode(file).frames
        XCTAssertEqual(pixel(frames[1].bitmap, 0, 0), red)
        XCTAssertEqual(pixel(frames[1].bitmap, 1, 0), green)
    }

    func testTransparencyAppliesOnlyToTheFrameAfterTheControlBlock() throws {
        var file = GIFFile(width: 1, height: 1, palette: colors)
        file.control(transparent: 0)
        file.frame(width: 1, height: 1, pixels: [0])
        file.frame(width: 1, height: 1, pixels: [0])
        file.trailer()
        let frames = try decode(file).frames
        XCTAssertEqual(pixel(frames[0].bitmap, 0, 0), clear)
        XCTAssertEqual(pixel(frames[1].bitmap, 0, 0), red)
    }

    func testLocalPaletteOverridesTheGlobalOne() throws {
        var file = GIFFile(width: 1, height: 1, palette: colors)
        file.frame(width: 1, height: 1, pixels: [0], palette: [0x0000FF, 0x000000])
        file.trailer()
        XCTAssertEqual(pixel(try decode(file).frames[0].bitmap, 0, 0), blue)
    }

    func testIndicesPastThePaletteAreTransparent() throws {
        var file = GIFFile(width: 3, height: 1, palette: [0xFF0000, 0x00FF00])
        file.frame(width: 3, height: 1, pixels: [0, 5, 255])
        file.trailer()
        let bitmap = try decode(file).frames[0].bitmap
        XCTAssertEqual(pixel(bitmap, 0, 0), red)
        XCTAssertEqual(pixel(bitmap, 1, 0), clear)
        XCTAssertEqual(pixel(bitmap, 2, 0), clear)
    }

    func testFramesWithoutAnyPaletteUseAGreyRamp() throws {
        var file = GIFFile(width: 3, height: 1, palette: nil)
        file.frame(width: 3, height: 1, pixels: [0, 128, 255])
        file.trailer()
        XCTAssertEqual(try decode(file).frames[0].bitmap.pixels, [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255])
    }

    func testInterlacedFrameEqualsTheSameFrameStoredInOrder() throws {
        let pixels = (0..<(7 * 19)).map { UInt8($0 % 4) }
        var plain = GIFFile(width: 7, height: 19, palette: colors)
        plain.frame(width: 7, height: 19, pixels: pixels)
        plain.trailer()
        var interlaced = GIFFile(width: 7, height: 19, palette: colors)
        interlaced.frame(width: 7, height: 19, pixels: pixels, interlaced: true)
        interlaced.trailer()
        XCTAssertNotEqual(plain.bytes, interlaced.bytes)
        XCTAssertEqual(try decode(plain).frames[0].bitmap, try decode(interlaced).frames[0].bitmap)
    }

    func testInterlacedRowOrderFollowsTheFourPasses() {
        XCTAssertEqual((0..<10).map { GIFDecoder.interlacedRow($0, height: 10) }, [0, 8, 4, 2, 6, 1, 3, 5, 7, 9])
        for height in 1...20 {
            let rows = (0..<height).map { GIFDecoder.interlacedRow($0, height: height) }
            XCTAssertEqual(rows.sorted(), Array(0..<height), "height \(height)")
        }
    }

    // MARK: Frames outside the canvas

    func testFramePartlyOutsideTheCanvasIsClipped() throws {
        var file = GIFFile(width: 3, height: 3, palette: colors)
        file.frame(x: 2, y: 2, width: 3, height: 3, pixels: [UInt8](repeating: 1, count: 9))
        file.trailer()
        let bitmap = try decode(file).frames[0].bitmap
        XCTAssertEqual(bitmap.size, PixelSize(width: 3, height: 3))
        XCTAssertEqual(pixel(bitmap, 2, 2), green)
        XCTAssertEqual(pixel(bitmap, 1, 1), clear)
    }

    func testFrameWhollyOutsideTheCanvasDrawsNothingButCounts() throws {
        var file = GIFFile(width: 2, height: 2, palette: colors)
        file.frame(width: 2, height: 2, pixels: [0, 0, 0, 0])
        file.control(delay: 7)
        file.frame(x: 50, y: 0, width: 2, height: 2, pixels: [1, 1, 1, 1])
        file.trailer()
        let frames = try decode(file).frames
        XCTAssertEqual(frames.count, 2)
        XCTAssertEqual(frames[1].bitmap, frames[0].bitmap)
        XCTAssertEqual(frames[1].delayCentiseconds, 7)
    }

    func testRowsBelowTheCanvasAreNeverDecoded() throws {
        // A 2x1000 frame on a 2x2 canvas: after its first two rows the LZW data is garbage, which
        // would fail if decoded.
        var file = GIFFile(width: 2, height: 2, palette: colors)
        let rows = GIFFile.lzw([1, 1, 1, 1], endCode: false)
        file.frame(width: 2, height: 1000, lzwData: rows + [UInt8](repeating: 0xFF, count: 600))
        file.trailer()
        let bitmap = try decode(file).frames[0].bitmap
        XCTAssertEqual(Set(stride(from: 0, to: 16, by: 4).map { Array(bitmap.pixels[$0..<($0 + 4)]) }), [green])
    }

    func testZeroSizedFrameDrawsNothingButCounts() throws {
        var file = GIFFile(width: 2, height: 1, palette: colors)
        file.frame(width: 2, height: 1, pixels: [0, 0])
        file.frame(width: 0, height: 5, lzwData: GIFFile.lzw([]))
        file.frame(width: 5, height: 0, lzwData: GIFFile.lzw([]))
        file.trailer()
        let frames = try decode(file).frames
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual(frames[2].bitmap, frames[0].bitmap)
    }

    // MARK: Timing and looping

    func testDelaysAreTheStoredCentiseconds() throws {
        var file = GIFFile(width: 1, height: 1, palette: colors)
        for delay in [0, 1, 2, 65535] {
            file.control(delay: delay)
            file.frame(width: 1, height: 1, pixels: [0])
        }
        file.trailer()
        let frames = try decode(file).frames
        XCTAssertEqual(frames.map(\.delayCentiseconds), [0, 1, 2, 65535])
        XCTAssertEqual(frames.map(\.displayDelaySeconds), [0.1, 0.1, 0.02, 655.35])
    }

    func testLoopCountComesFromNetscapeOrAnimextsAndIsNilWithoutOne() throws {
        for (identifier, count) in [("NETSCAPE2.0", 0), ("NETSCAPE2.0", 3), ("ANIMEXTS1.0", 65535)] {
            var file = GIFFile(width: 1, height: 1, palette: colors)
            file.loop(count, identifier: identifier)
            file.frame(width: 1, height: 1, pixels: [0])
            file.trailer()
            XCTAssertEqual(try decode(file).info.loopCount, count, identifier)
        }
        var plain = GIFFile(width: 1, height: 1, palette: colors)
        plain.comment("no loop here")
        plain.frame(width: 1, height: 1, pixels: [0])
        plain.trailer()
        XCTAssertNil(try decode(plain).info.loopCount)
    }

    // MARK: Frames kept

    func testFramesKeptAreTheFrameLimitOrTheBudgetAtTheOutputSize() throws {
        let file = animation(frames: 10, width: 20, height: 20)
        func kept(_ options: DecodingOptions) throws -> Int {
            try ImageDecoder.decode(.data(file.data), options: options).frames.count
        }
        let target = PixelSize(width: 10, height: 10)  // 400 bytes a frame
        XCTAssertEqual(try kept(DecodingOptions(targetSize: target, frameBudgetBytes: 1200)), 3)
        XCTAssertEqual(try kept(DecodingOptions(targetSize: target, maxFrames: 2, frameBudgetBytes: 1200)), 2)
        XCTAssertEqual(try kept(DecodingOptions(targetSize: target, frameBudgetBytes: 0)), 1)
        XCTAssertEqual(try kept(DecodingOptions(frameBudgetBytes: 1600 * 4)), 4)
        XCTAssertEqual(try kept(DecodingOptions()), 10)
    }

    func testFramesStopBeforeTheTotalPixelLimit() throws {
        let file = animation(frames: 10, width: 20, height: 20)
        let image = try ImageDecoder.decode(
            .data(file.data), options: DecodingOptions(limits: DecodingLimits(maxTotalPixels: 1000)))
        XCTAssertEqual(image.frames.count, 2)
        let one = try ImageDecoder.decode(
            .data(file.data), options: DecodingOptions(limits: DecodingLimits(maxTotalPixels: 10)))
        XCTAssertEqual(one.frames.count, 1)
    }

    func testReadingStopsAfterTheLastKeptFrame() throws {
        let full = animation(frames: 300, width: 16, height: 16)
        let firstEight = animation(frames: 8, width: 16, height: 16)
        let endOfEighthFrame = firstEight.bytes.count - 1  // all of it but the trailer
        XCTAssertEqual(Array(full.bytes.prefix(endOfEighthFrame)), Array(firstEight.bytes.dropLast()))

        let path = NSTemporaryDirectory() + "imgcache-gif-\(UUID().uuidString).gif"
        try full.data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try XCTUnwrap(fopen(path, "rb"))
        defer { fclose(file) }
        var frames = 0
        _ = try GIFDecoder.decode(.file(file), options: DecodingOptions(maxFrames: 8)) { _, _ in frames += 1 }
        XCTAssertEqual(frames, 8)
        XCTAssertEqual(ftell(file), endOfEighthFrame, "bytes consumed: exactly the first eight frames")
    }

    func testFramesAfterTheLastKeptOneMayBeGarbage() throws {
        var file = animation(frames: 8, width: 16, height: 16, trailer: false)
        file.frame(width: 16, height: 16, lzwData: [UInt8](repeating: 0xFF, count: 400))
        file.append([UInt8](repeating: 0x99, count: 1000))
        let image = try ImageDecoder.decode(.data(file.data), options: DecodingOptions(maxFrames: 8))
        XCTAssertEqual(image.frames.count, 8)
        XCTAssertThrowsError(try ImageDecoder.decode(.data(file.data), options: DecodingOptions(maxFrames: 9)))
    }

    func testManyEmptyFramesEndQuickly() throws {
        var file = GIFFile(width: 1, height: 1, palette: colors)
        let empty = GIFFile.lzw([])
        for _ in 0..<100_000 { file.frame(width: 0, height: 0, lzwData: empty) }
        file.trailer()
        let start = Date()
        XCTAssertEqual(try decode(file, DecodingOptions()).frames.count, 50)
        let inspected = try file.data.withUnsafeBytes { try GIFDecoder.inspect(.memory($0)) }
        XCTAssertEqual(inspected.frameCount, 100_000)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    // MARK: Resampling

    func testEveryFrameIsResampledToTheTarget() throws {
        var file = GIFFile(width: 4, height: 2, palette: colors)
        file.frame(width: 4, height: 2, pixels: [0, 0, 2, 2, 0, 0, 2, 2])
        file.frame(width: 2, height: 2, pixels: [1, 1, 1, 1])
        file.trailer()
        let image = try ImageDecoder.decode(.data(file.data), options: DecodingOptions(targetSize: PixelSize(width: 2, height: 1)))
        XCTAssertEqual(image.info.sourceSize, PixelSize(width: 4, height: 2))
        XCTAssertEqual(image.frames.map(\.bitmap.pixels), [red + blue, green + blue])
    }

    // MARK: Limits

    func testHugeCanvasIsRefusedBeforeAllocation() throws {
        var file = GIFFile(width: 65535, height: 65535, palette: colors)
        file.frame(width: 1, height: 1, pixels: [0])
        file.trailer()
        XCTAssertThrowsError(try decode(file)) {
            XCTAssertEqual($0 as? ImgCacheError, .dimensionsOverLimit(width: 65535, height: 65535, limit: 100_000_000))
        }
    }

    /// The shape of Pillow's decompression_bomb.gif: a 32x32 screen with a 65535x65535 frame.
    func testHugeFrameOnASmallCanvasIsRefusedBeforeItsPixelsAreRead() throws {
        var file = GIFFile(width: 32, height: 32, palette: colors)
        file.frame(width: 65535, height: 65535, lzwData: GIFFile.lzw([UInt8](repeating: 0, count: 5000), endCode: false))
        file.trailer()
        let start = Date()
        XCTAssertThrowsError(try decode(file)) {
            XCTAssertEqual($0 as? ImgCacheError, .dimensionsOverLimit(width: 65535, height: 65535, limit: 100_000_000))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }

    func testZeroWidthCanvasIsCorrupt() throws {
        var file = GIFFile(width: 0, height: 32, palette: colors)
        file.frame(width: 1, height: 1, pixels: [0])
        file.trailer()
        XCTAssertThrowsError(try decode(file)) {
            XCTAssertEqual($0 as? ImgCacheError, .corruptImage(format: .gif, detail: "zero image dimension (0x32)"))
        }
    }

    // MARK: Damage

    func testFileWithoutAnyImageIsCorrupt() throws {
        var file = GIFFile(width: 2, height: 2, palette: colors)
        file.comment("nothing else")
        file.trailer()
        XCTAssertThrowsError(try decode(file)) {
            XCTAssertEqual($0 as? ImgCacheError, .corruptImage(format: .gif, detail: "the file holds no image"))
        }
    }

    func testDataCutInsideALaterFrameIsAnErrorUnlessTruncationIsAccepted() throws {
        // Two 2x300 frames, red then green; the green one's LZW data spans three sub-blocks.
        var file = GIFFile(width: 2, height: 300, palette: colors)
        file.frame(width: 2, height: 300, pixels: [UInt8](repeating: 0, count: 600))
        file.frame(width: 2, height: 300, pixels: [UInt8](repeating: 1, count: 600))
        let cut = Data(file.bytes.dropLast(100))  // inside the third sub-block
        XCTAssertThrowsError(try ImageDecoder.decode(.data(cut))) {
            XCTAssertEqual($0 as? ImgCacheError, .corruptImage(format: .gif, detail: "data ends before the image does (truncated file)"))
        }
        let image = try ImageDecoder.decode(.data(cut), options: DecodingOptions(acceptsTruncatedData: true))
        XCTAssertTrue(image.info.isTruncated)
        XCTAssertEqual(image.frames.count, 2)
        XCTAssertEqual(pixel(image.frames[1].bitmap, 0, 0), green, "rows received are drawn")
        XCTAssertEqual(pixel(image.frames[1].bitmap, 1, 299), red, "rows not received stay as they were")
    }

    func testDataCutBeforeTheFirstRowIsAnErrorEvenWhenTruncationIsAccepted() throws {
        var file = GIFFile(width: 2, height: 2, palette: colors)
        file.frame(width: 2, height: 2, pixels: [0, 0, 0, 0])
        let cut = Data(file.bytes.prefix(file.bytes.count - 6))
        XCTAssertThrowsError(try ImageDecoder.decode(.data(cut), options: DecodingOptions(acceptsTruncatedData: true)))
    }

    func testMissingTrailerIsAcceptedAsComplete() throws {
        let file = twoFrames(firstDisposal: 1, trailer: false)
        let image = try decode(file)
        XCTAssertEqual(image.frames.count, 2)
        XCTAssertFalse(image.info.isTruncated)
    }

    func testBytesThatStartNoRecordEndTheImageAfterTheFirstFrame() throws {
        var file = twoFrames(firstDisposal: 1, trailer: false)
        file.append(Array("GIF89a and more".utf8))
        XCTAssertEqual(try decode(file).frames.count, 2)
        var early = GIFFile(width: 1, height: 1, palette: colors)
        early.append([0x47, 0x49, 0x46])
        XCTAssertThrowsError(try decode(early))
    }

    func testEarlyEndCodeEndsTheFrameAndDecodingGoesOn() throws {
        var file = GIFFile(width: 2, height: 3, palette: colors)
        file.frame(width: 2, height: 3, pixels: [0, 0, 0, 0, 0, 0])
        file.frame(width: 2, height: 3, lzwData: GIFFile.lzw([1, 1, 1]))  // ends inside row 2
        file.frame(x: 1, y: 2, width: 1, height: 1, pixels: [2])
        file.trailer()
        let frames = try decode(file).frames
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual(pixel(frames[1].bitmap, 1, 0), green)
        XCTAssertEqual(pixel(frames[1].bitmap, 0, 1), red, "the row in progress is not drawn")
        XCTAssertEqual(pixel(frames[2].bitmap, 1, 2), blue)
    }

    func testInvalidLZWCodesAreCorrupt() throws {
        var file = GIFFile(width: 2, height: 2, palette: colors)
        file.frame(width: 2, height: 2, lzwData: [0x00, 0xFF, 0xFF, 0xFF, 0xFF])
        file.trailer()
        XCTAssertThrowsError(try decode(file)) {
            guard case ImgCacheError.corruptImage(format: .gif, _) = $0 else { return XCTFail("\($0)") }
        }
    }

    /// In the manner of image-gif's crash tests: tiny and oversized LZW code sizes with random
    /// codes, and random byte changes to a valid animation, each give an image or a typed error.
    func testRandomLZWDataAndCodeSizesEndInAnImageOrATypedError() throws {
        var generator = SeededGenerator(seed: 96)
        var decoded = 0, rejected = 0
        for codeSize in UInt8(0)...12 {
            for _ in 0..<40 {
                var file = GIFFile(width: 8, height: 8, palette: colors)
                let length = Int.random(in: 1...300, using: &generator)
                let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                file.frame(width: 8, height: 8, lzwData: data, codeSize: codeSize)
                file.trailer()
                do {
                    _ = try decode(file)
                    decoded += 1
                } catch is ImgCacheError {
                    rejected += 1
                }
            }
        }
        XCTAssertEqual(decoded + rejected, 13 * 40)
        XCTAssertGreaterThan(rejected, 0)
    }

    func testRandomlyDamagedAnimationsEndInAnImageOrATypedError() throws {
        var generator = SeededGenerator(seed: 101)
        let original = animation(frames: 6, width: 9, height: 7).bytes
        var decoded = 0, rejected = 0
        for _ in 0..<500 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 6..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try ImageDecoder.decode(.data(Data(bytes)), options: everyFrame)
                _ = try Data(bytes).withUnsafeBytes { try GIFDecoder.inspect(.memory($0)) }
                decoded += 1
            } catch is ImgCacheError {
                rejected += 1
            }
        }
        XCTAssertEqual(decoded + rejected, 500)
    }

    func testUnknownExtensionsAndLongCommentsAreSkipped() throws {
        var file = GIFFile(width: 1, height: 1, palette: colors)
        file.append([0x21, 0x99] + GIFFile.subBlocks([UInt8](repeating: 7, count: 1000)))
        file.comment(String(repeating: "x", count: 2000))
        file.loop(4)
        file.frame(width: 1, height: 1, pixels: [2])
        file.trailer()
        let image = try decode(file)
        XCTAssertEqual(pixel(image.frames[0].bitmap, 0, 0), blue)
        XCTAssertEqual(image.info.loopCount, 4)
    }

    // MARK: Inspection

    func testInspectCountsFramesWithoutDecodingThem() throws {
        var file = GIFFile(width: 3, height: 2, palette: colors)
        file.loop(0)
        file.frame(width: 3, height: 2, pixels: [0, 0, 0, 0, 0, 0])
        file.frame(width: 3, height: 2, lzwData: [UInt8](repeating: 0xFF, count: 40))  // never decoded
        file.frame(width: 1, height: 1, pixels: [1])
        file.trailer()
        let inspected = try file.data.withUnsafeBytes { try GIFDecoder.inspect(.memory($0)) }
        XCTAssertEqual(inspected.canvas, PixelSize(width: 3, height: 2))
        XCTAssertEqual(inspected.frameCount, 3)
        XCTAssertEqual(inspected.loopCount, 0)
    }

    // MARK: Helpers

    private func decode(_ file: GIFFile, _ options: DecodingOptions? = nil) throws -> DecodedImage {
        try ImageDecoder.decode(.data(file.data), options: options ?? everyFrame)
    }

    private func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * bitmap.width + x) * 4
        return Array(bitmap.pixels[offset..<(offset + 4)])
    }

    /// A 2x2 red frame with `firstDisposal`, then a 1x1 green frame at (1, 1). The background index
    /// is 2 (blue), which must never show.
    private func twoFrames(firstDisposal: Int, trailer: Bool = true) -> GIFFile {
        var file = GIFFile(width: 2, height: 2, palette: colors, background: 2)
        file.control(disposal: firstDisposal)
        file.frame(width: 2, height: 2, pixels: [0, 0, 0, 0])
        file.frame(x: 1, y: 1, width: 1, height: 1, pixels: [1])
        if trailer { file.trailer() }
        return file
    }

    /// `frames` frames of `width x height`, frame i filled with colour i % 4, looping forever.
    private func animation(frames: Int, width: Int, height: Int, trailer: Bool = true) -> GIFFile {
        var file = GIFFile(width: width, height: height, palette: colors)
        file.loop(0)
        for index in 0..<frames {
            file.control(delay: 5)
            file.frame(width: width, height: height, pixels: [UInt8](repeating: UInt8(index % 4), count: width * height))
        }
        if trailer { file.trailer() }
        return file
    }
}
