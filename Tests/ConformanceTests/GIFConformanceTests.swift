import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// GIF suites from five projects, read in place. Composited frames are compared as RGBA, except
/// that two pixels with alpha 0 are equal whatever their colour.
final class GIFConformanceTests: XCTestCase {
    /// Keeps every frame of the suites' animations (the largest keeps 380 frames of 472x298).
    private let allFrames = DecodingOptions(maxFrames: 1000, frameBudgetBytes: DecodingOptions.frameBudgets.upperBound)
    /// Every frame of the long animations, which would not all fit the largest budget at full size.
    private let allSmallFrames = DecodingOptions(
        targetSize: PixelSize(width: 64, height: 64), maxFrames: 1000, frameBudgetBytes: DecodingOptions.frameBudgets.upperBound)

    // MARK: gif-test-suite-serenity

    func testSerenitySuiteFramesEqualTheCoalescedReferences() throws {
        let folder = try Corpus.folder("gif-test-suite-serenity/gifs")
        var files = 0, framesMatched = 0
        for file in try Corpus.files(in: folder, suffix: ".gif") {
            let stem = file.deletingPathExtension().lastPathComponent
            let decoded = try ImageDecoder.decode(.file(path: file.path), options: allFrames)
            let references = stem.hasPrefix("static")
                ? [folder.appendingPathComponent("frames/\(stem).png")]
                : (0..<4).map { folder.appendingPathComponent("frames/\(stem)-\($0).png") }
            XCTAssertEqual(decoded.frames.count, references.count, stem)
            for (index, (frame, reference)) in zip(decoded.frames, references).enumerated() {
                let expected = try ImageDecoder.decode(.file(path: reference.path)).frames[0].bitmap
                if assertSame(frame.bitmap, expected, "\(stem) frame \(index)") { framesMatched += 1 }
            }
            XCTAssertEqual(decoded.info.loopCount, stem.hasPrefix("static") || stem.contains("noloop") ? nil : 0, stem)
            files += 1
        }
        Corpus.report("gif-test-suite-serenity", ["files": files, "frames equal": framesMatched])
        XCTAssertEqual(files, 13)
        XCTAssertEqual(framesMatched, 46)
    }

    func testSerenityVariableDelayIsKeptInCentiseconds() throws {
        let folder = try Corpus.folder("gif-test-suite-serenity/gifs")
        let decoded = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("animated_loop_variable_delay.gif").path))
        XCTAssertEqual(decoded.frames.map(\.delayCentiseconds), [100, 100, 10, 100])
    }

    // MARK: image-rs

    func testImageRsFirstFramesEqualTheReferences() throws {
        let images = try Corpus.folder("image-rs/images/gif")
        let references = try Corpus.folder("image-rs/reference/gif")
        var matched = 0, withoutReference = 0
        for group in ["anim", "simple"] {
            for file in try Corpus.files(in: images.appendingPathComponent(group), suffix: ".gif") {
                let name = file.lastPathComponent
                let decoded = try ImageDecoder.decode(.file(path: file.path), options: DecodingOptions(maxFrames: 1))
                let reference = references.appendingPathComponent("\(group)/\(name).png")
                guard FileManager.default.fileExists(atPath: reference.path) else {
                    withoutReference += 1
                    continue
                }
                let expected = try ImageDecoder.decode(.file(path: reference.path)).frames[0].bitmap
                if assertSame(decoded.frames[0].bitmap, expected, name) { matched += 1 }
            }
        }
        Corpus.report("image-rs gif", ["first frames equal": matched, "decoded without reference": withoutReference])
        XCTAssertEqual(matched, 9)
        XCTAssertEqual(withoutReference, 2)
    }

    func testImageRsZeroLoopCountRegressionFailsCleanly() throws {
        let folder = try Corpus.folder("image-rs/regression/gif")
        XCTAssertThrowsError(try ImageDecoder.decode(.file(path: folder.appendingPathComponent("zero-loop-count.gif").path))) {
            guard case ImgCacheError.corruptImage(format: .gif, _) = $0 else { return XCTFail("\($0)") }
        }
    }

    // MARK: giflib

    /// `gif2rgb -1` writes the logical screen as raw RGB, filled with the background colour and with
    /// every pixel of the image drawn, the transparent index included. Pixels we leave transparent
    /// (x-trans.gif's transparent index) are therefore left out of the comparison.
    func testGiflibSingleFrameFilesEqualGif2rgbDumps() throws {
        let folder = try Corpus.folder("giflib")
        var matched = 0, pixelsCompared = 0, transparentSkipped = 0
        for stem in ["gifgrid", "porsche", "solid2", "treescap", "treescap-interlaced", "x-trans"] {
            let decoded = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("pic/\(stem).gif").path))
            let dump = try Data(contentsOf: folder.appendingPathComponent("tests-expected/\(stem).rgb"))
            let bitmap = decoded.frames[0].bitmap
            XCTAssertEqual(dump.count, bitmap.size.area * 3, stem)
            var differing = 0
            for pixel in 0..<min(bitmap.size.area, dump.count / 3) {
                guard bitmap.pixels[pixel * 4 + 3] == 255 else {
                    transparentSkipped += 1
                    continue
                }
                pixelsCompared += 1
                for channel in 0..<3 where bitmap.pixels[pixel * 4 + channel] != dump[pixel * 3 + channel] {
                    differing += 1
                }
            }
            XCTAssertEqual(differing, 0, "\(stem): channels differing from gif2rgb")
            if differing == 0 { matched += 1 }
        }
        Corpus.report("giflib", ["files equal to .rgb": matched, "pixels compared": pixelsCompared,
                                 "transparent pixels skipped": transparentSkipped])
        XCTAssertEqual(matched, 6)
        XCTAssertEqual(transparentSkipped, 9_406, "x-trans.gif's pixels of its transparent index")
    }

    func testGiflibInterlacedTreescapeEqualsTheProgressiveOne() throws {
        let folder = try Corpus.folder("giflib/pic")
        let plain = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("treescap.gif").path))
        let interlaced = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("treescap-interlaced.gif").path))
        XCTAssertEqual(plain.frames[0].bitmap, interlaced.frames[0].bitmap)
    }

    func testGiflibAnimationsDecodeEveryFrameWithTheirLoopCounts() throws {
        let folder = try Corpus.folder("giflib/pic")
        let fire = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("fire.gif").path), options: allFrames)
        let welcome = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("welcome2.gif").path), options: allFrames)
        XCTAssertEqual(fire.frames.count, 33)
        XCTAssertEqual(fire.info.loopCount, 0)
        XCTAssertEqual(welcome.frames.count, 6)
        XCTAssertEqual(welcome.info.loopCount, 1000)
    }

    // MARK: image-gif

    /// results.txt holds CRCs of the frames as stored, not composited. Where every frame covers the
    /// canvas and has no transparency the two are the same, so those CRCs are checked; every other
    /// sample must decode all its frames (counted independently by `inspect`).
    func testImageGifSamplesDecodeEveryFrame() throws {
        let folder = try Corpus.folder("image-gif")
        let crcs = try Self.crcs(folder.appendingPathComponent("results.txt"))
        var decoded = 0, crcMatched = 0, frames = 0
        for file in try Corpus.files(in: folder.appendingPathComponent("samples"), suffix: ".gif") {
            let name = file.lastPathComponent
            var crcInput: [UInt8] = []
            var count = 0
            let options = Self.wholeOpaqueFrames.contains(name) ? allFrames : allSmallFrames
            let info = try ImageDecoder.decode(.file(path: file.path), options: options) { frame, _ in
                count += 1
                if Self.wholeOpaqueFrames.contains(name) { crcInput += frame.bitmap.pixels }
            }
            let inspected = try ImageSource.file(path: file.path).withInput { try GIFDecoder.inspect($0) }
            XCTAssertEqual(count, inspected.frameCount, name)
            XCTAssertEqual(info.sourceSize, inspected.canvas, name)
            XCTAssertEqual(info.loopCount, inspected.loopCount, name)
            if Self.wholeOpaqueFrames.contains(name) {
                XCTAssertEqual(CRC32.checksum(crcInput), crcs[name], name)
                if CRC32.checksum(crcInput) == crcs[name] { crcMatched += 1 }
            }
            decoded += 1
            frames += count
        }
        Corpus.report("image-gif samples", ["decoded": decoded, "frames": frames, "CRC equal": crcMatched])
        XCTAssertEqual(decoded, 12)
        XCTAssertEqual(frames, 1 + 1 + 2 + 2 + 2 + 2 + 380 + 1 + 14 + 1 + 259 + 1)
        XCTAssertEqual(crcMatched, Self.wholeOpaqueFrames.count)
    }

    /// Samples whose frames all cover the canvas without transparency.
    private static let wholeOpaqueFrames: Set<String> = [
        "2x2.gif", "anim-gr.gif", "beacon.gif", "beacon_icc.gif", "beacon_xmp.gif", "interlaced.gif",
        "moon_impact.gif", "sample_1.gif",
    ]

    /// image-gif's own stall test: every prefix of anim-gr.gif either decodes or fails with a typed error.
    func testImageGifEveryTruncationOfAnAnimationEndsCleanly() throws {
        let folder = try Corpus.folder("image-gif/samples")
        let data = try Data(contentsOf: folder.appendingPathComponent("anim-gr.gif"))
        var decoded = 0, rejected = 0, truncatedAccepted = 0
        for length in 0..<data.count {
            let prefix = data.prefix(length)
            do {
                _ = try ImageDecoder.decode(.data(prefix))
                decoded += 1
            } catch is ImgCacheError {
                rejected += 1
            }
            if let image = try? ImageDecoder.decode(.data(prefix), options: DecodingOptions(acceptsTruncatedData: true)),
               image.info.isTruncated {
                truncatedAccepted += 1
            }
        }
        Corpus.report("image-gif truncations of anim-gr.gif", ["decoded": decoded, "rejected": rejected,
                                                               "accepted as truncated": truncatedAccepted])
        XCTAssertEqual(decoded + rejected, data.count)
        XCTAssertGreaterThan(truncatedAccepted, 0)
    }

    // MARK: Pillow

    func testPillowFilesDecodeOrFailWithTypedErrors() throws {
        let folder = try Corpus.folder("pillow/gif")
        var decoded = 0, rejected: [String] = []
        for file in try Corpus.files(in: folder, suffix: ".gif") {
            do {
                let image = try ImageDecoder.decode(.file(path: file.path), options: allFrames)
                XCTAssertFalse(image.frames.isEmpty)
                decoded += 1
            } catch let error as ImgCacheError {
                guard case .corruptImage(format: .gif, _) = error else { throw error }
                rejected.append(file.lastPathComponent)
            }
        }
        Corpus.report("pillow gif", ["decoded": decoded, "rejected": rejected.count])
        // issue_2811.gif declares an LZW minimum code size of 11; pixel values are bytes, so GIF
        // allows at most 8 and giflib refuses the frame ("Failed to read from given file").
        XCTAssertEqual(rejected, ["issue_2811.gif", "zero_width.gif"])
        XCTAssertEqual(decoded, 34)
    }

    func testPillowZeroWidthScreenIsRejected() throws {
        let folder = try Corpus.folder("pillow/gif")
        XCTAssertThrowsError(try ImageDecoder.decode(.file(path: folder.appendingPathComponent("zero_width.gif").path))) {
            XCTAssertEqual($0 as? ImgCacheError, .corruptImage(format: .gif, detail: "zero image dimension (0x32)"))
        }
    }

    /// Pillow's renders where its semantics are a browser's: the second frame of each file.
    func testPillowMergedFramesEqualItsRenders() throws {
        let folder = try Corpus.folder("pillow")
        var matched = 0
        for (gif, png) in [
            ("different_transparency", "different_transparency_merged"),
            ("dispose_none_load_end", "dispose_none_load_end_second"),
            ("dispose_prev_first_frame", "dispose_prev_first_frame_seeked"),
            ("missing_background", "missing_background_first_frame"),
        ] {
            let decoded = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("gif/\(gif).gif").path), options: allFrames)
            let expected = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("gif-expected/\(png).png").path))
            if assertSame(decoded.frames[1].bitmap, expected.frames[0].bitmap, gif) { matched += 1 }
        }
        Corpus.report("pillow gif-expected", ["second frames equal": matched])
        XCTAssertEqual(matched, 4)
    }

    func testPillowDuplicateLoopExtensionsKeepTheFirst() throws {
        let folder = try Corpus.folder("pillow/gif")
        let decoded = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("duplicate_number_of_loops.gif").path), options: allFrames)
        XCTAssertEqual(decoded.info.loopCount, 2)
        XCTAssertEqual(decoded.frames.count, 2)
    }

    func testPillowFramesWithoutPaletteUseAGreyRamp() throws {
        let folder = try Corpus.folder("pillow/gif")
        let decoded = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("no_palette.gif").path), options: allFrames)
        XCTAssertEqual(decoded.frames.count, 2)
        for frame in decoded.frames {
            let pixel = frame.bitmap.pixels
            XCTAssertEqual(pixel[0], pixel[1])
            XCTAssertEqual(pixel[1], pixel[2])
            XCTAssertEqual(pixel[3], 255)
        }
    }

    // MARK: Re-encoding

    /// Every corpus animation, decoded to fit 160x160 (so colours blend past 256), encoded with
    /// GIFEncoder and decoded again: each frame's PSNR over the RGB of the pixels the frame shows
    /// opaque (alpha >= 128) is at least 30 dB, and the other pixels come back transparent.
    func testReencodedCorpusAnimationsKeepEveryFrameAbove30dB() throws {
        let folders = ["gif-test-suite-serenity/gifs", "giflib/pic", "image-gif/samples", "image-rs/images/gif/anim", "pillow/gif"]
        let options = DecodingOptions(targetSize: PixelSize(width: 160, height: 160))
        var animations = 0, frames = 0, quantizedFrames = 0
        var lowest = (psnr: Double.infinity, label: "")
        for folder in folders {
            for file in try Corpus.files(in: try Corpus.folder(folder), suffix: ".gif") {
                guard let original = try? ImageDecoder.decode(.file(path: file.path), options: options),
                      original.isAnimated else { continue }
                let copy = try ImageDecoder.decode(.data(try GIFEncoder.encode(original)), options: allFrames)
                XCTAssertEqual(copy.frames.count, original.frames.count, file.lastPathComponent)
                XCTAssertEqual(copy.info.loopCount, original.info.loopCount, file.lastPathComponent)
                for (index, (source, result)) in zip(original.frames, copy.frames).enumerated() {
                    let label = "\(file.lastPathComponent) frame \(index)"
                    let psnr = PSNR.opaqueRGB(source.bitmap, result.bitmap)
                    XCTAssertGreaterThanOrEqual(psnr, 30, label)
                    XCTAssertEqual(result.delayCentiseconds, source.delayCentiseconds, label)
                    XCTAssertTrue(Self.transparencyAgrees(source.bitmap, result.bitmap), label)
                    if psnr < lowest.psnr { lowest = (psnr, label) }
                    if psnr.isFinite { quantizedFrames += 1 }
                    frames += 1
                }
                animations += 1
            }
        }
        print("[gif] lowest re-encoding PSNR: \(String(format: "%.2f", lowest.psnr)) dB (\(lowest.label))")
        Corpus.report("gif re-encoding", ["animations": animations, "frames": frames, "frames not lossless": quantizedFrames])
        XCTAssertGreaterThan(animations, 30)
    }

    // MARK: Helpers

    /// True when exactly the pixels with alpha < 128 in `original` are transparent in `copy`, and
    /// the rest opaque.
    private static func transparencyAgrees(_ original: Bitmap, _ copy: Bitmap) -> Bool {
        stride(from: 3, to: original.pixels.count, by: 4).allSatisfy {
            copy.pixels[$0] == (original.pixels[$0] < 128 ? 0 : 255)
        }
    }

    /// Asserts that the bitmaps are the same size and RGBA-equal, pixels with alpha 0 being equal
    /// whatever their colour; returns whether they were.
    @discardableResult
    private func assertSame(_ actual: Bitmap, _ expected: Bitmap, _ label: String, line: UInt = #line) -> Bool {
        guard actual.size == expected.size else {
            XCTFail("\(label): size \(actual.size), expected \(expected.size)", line: line)
            return false
        }
        var differing = 0
        var first: Int?
        for pixel in 0..<actual.size.area {
            let a = actual.pixels[(pixel * 4)..<(pixel * 4 + 4)], b = expected.pixels[(pixel * 4)..<(pixel * 4 + 4)]
            if a.last == 0 && b.last == 0 { continue }
            if !a.elementsEqual(b) {
                differing += 1
                if first == nil { first = pixel }
            }
        }
        if let first {
            let x = first % actual.width, y = first / actual.width
            XCTFail("\(label): \(differing) pixels differ; first at (\(x), \(y)): "
                + "\(Array(actual.pixels[(first * 4)..<(first * 4 + 4)])) vs \(Array(expected.pixels[(first * 4)..<(first * 4 + 4)]))",
                line: line)
        }
        return differing == 0
    }

    /// `tests/samples/<name>: crc` lines of image-gif's results.txt, keyed by file name.
    private static func crcs(_ file: URL) throws -> [String: UInt32] {
        var result: [String: UInt32] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: ":")
            guard parts.count == 2, let value = UInt32(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            result[String(parts[0].split(separator: "/").last!)] = value
        }
        return result
    }
}
