import Foundation
import XCTest
@testable import ImgCache

/// Animated WebP made at test time (img2webp, gif2webp), compared frame by frame with Pillow's
/// reading of the same file, which composites with libwebp's own WebPAnimDecoder.
final class WebPAnimationTests: XCTestCase {
    /// Durations given to img2webp, frame after frame, in milliseconds.
    private static let durations = [40, 75, 100, 15, 1234]

    /// 300 distinct 96x64 frames (an opaque band, a translucent square moving over transparency,
    /// the frame number) made with img2webp, looping 3 times; frames 2 to 4 lossy, the rest lossless.
    private func threeHundredFrames(_ bench: WebPWorkbench) throws -> String {
        let script = """
            import sys
            from PIL import Image, ImageDraw
            for i in range(int(sys.argv[2])):
                im = Image.new("RGBA", (96, 64), (0, 0, 0, 0))
                draw = ImageDraw.Draw(im)
                draw.rectangle([0, 0, 95, 31], fill=(i % 256, 100, 255 - i % 256, 255))
                draw.rectangle([i % 80, 32 + i % 24, i % 80 + 15, 40 + i % 24], fill=(255, i * 7 % 256, 0, 128 + i % 100))
                draw.text((2, 2), str(i), fill=(255, 255, 255, 255))
                im.save(f"{sys.argv[1]}/f{i:04}.png")
            """
        try bench.run("python3", ["-c", script, bench.folder.path, "300"])
        var arguments = ["-loop", "3"]
        for index in 0..<300 {
            arguments += ["-d", "\(Self.durations[index % 5])", (2...4).contains(index) ? "-lossy" : "-lossless"]
            arguments.append(String(format: "f%04d.png", index))
        }
        try bench.run("img2webp", arguments + ["-o", "anim.webp"])
        return bench.path("anim.webp")
    }

    func testTheFirstEightOfThreeHundredFramesMatchLibwebpsCompositing() throws {
        let bench = try WebPWorkbench()
        let webp = try threeHundredFrames(bench)
        let options = DecodingOptions(targetSize: PixelSize(width: 48, height: 48), maxFrames: 8)
        let decoded = try ImageDecoder.decode(.file(path: webp), options: options)
        XCTAssertEqual(decoded.frames.count, 8)
        XCTAssertEqual(decoded.size, PixelSize(width: 48, height: 32))
        XCTAssertEqual(decoded.info, ImageInfo(format: .webp, sourceSize: PixelSize(width: 96, height: 64), loopCount: 3))

        let reference = try bench.pillowFrames(webp, limit: 8)
        XCTAssertEqual(reference.loop, 3)
        XCTAssertEqual(reference.durations, (0..<8).map { Self.durations[$0 % 5] })
        XCTAssertEqual(decoded.frames.map(\.delayCentiseconds), reference.durations.map { ($0 + 5) / 10 })
        for (index, (frame, png)) in zip(decoded.frames, reference.pngs).enumerated() {
            let expected = try ImageDecoder.decode(.file(path: png), options: options).frames[0].bitmap
            XCTAssertLessThanOrEqual(WebPWorkbench.maxDifference(frame.bitmap, expected), 2, "frame \(index)")
        }
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: webp)),
                       ImageInspection(format: .webp, size: PixelSize(width: 96, height: 64), frameCount: 300, loopCount: 3))
    }

    /// Frames 9 and later have their image data overwritten: 8 frames still decode, as without the
    /// damage, since nothing after the last frame kept is decoded; asking for 20 fails at frame 9.
    func testFramesAfterTheLastKeptAreNeverDecoded() throws {
        let bench = try WebPWorkbench()
        let webp = try threeHundredFrames(bench)
        let intact = try Data(contentsOf: URL(fileURLWithPath: webp))
        let damaged = try Self.overwritingImageData(of: intact, fromFrame: 8)
        XCTAssertNotEqual(damaged, intact)

        let eight = DecodingOptions(maxFrames: 8)
        XCTAssertEqual(try ImageDecoder.decode(.data(damaged), options: eight), try ImageDecoder.decode(.data(intact), options: eight))
        XCTAssertEqual(try ImageDecoder.decode(.data(intact), options: DecodingOptions(maxFrames: 20)).frames.count, 20)
        XCTAssertThrowsError(try ImageDecoder.decode(.data(damaged), options: DecodingOptions(maxFrames: 20))) {
            XCTAssertEqual($0 as? ImgCacheError, .corruptImage(format: .webp, detail: "frame 9 of 300 cannot be decoded"))
        }
    }

    func testFramesKeptFollowTheBudgetAndTheTotalPixelLimit() throws {
        let bench = try WebPWorkbench()
        let webp = try threeHundredFrames(bench)
        let budget = DecodingOptions(maxFrames: 100, frameBudgetBytes: 96 * 64 * 4 * 5)
        XCTAssertEqual(try ImageDecoder.decode(.file(path: webp), options: budget).frames.count, 5)
        let total = DecodingOptions(maxFrames: 100, limits: DecodingLimits(maxTotalPixels: 96 * 64 * 3))
        XCTAssertEqual(try ImageDecoder.decode(.file(path: webp), options: total).frames.count, 3)
        let all = DecodingOptions(targetSize: PixelSize(width: 12, height: 12), maxFrames: 1000)
        XCTAssertEqual(try ImageDecoder.decode(.file(path: webp), options: all).frames.count, 300)
    }

    /// A GIF with transparency and every disposal, converted by gif2webp (which turns them into
    /// WebP blending and disposal): every frame matches Pillow's, and the GIF's own frames.
    func testBlendingAndDisposalMatchLibwebpAndTheGIF() throws {
        let bench = try WebPWorkbench()
        let script = """
            import sys
            from PIL import Image, ImageDraw
            frames = []
            for i in range(6):
                im = Image.new("P", (40, 30), 0)
                im.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0] + [0] * 753)
                draw = ImageDraw.Draw(im)
                draw.rectangle([i * 5, i * 3, i * 5 + 12, i * 3 + 9], fill=1 + i % 4)
                if i % 2: draw.ellipse([20, 5, 35, 25], fill=2)
                frames.append(im)
            frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], transparency=0, loop=0,
                           duration=[50, 120, 70, 200, 30, 90], disposal=[1, 2, 1, 2, 3, 1], optimize=False)
            """
        try bench.run("python3", ["-c", script, bench.path("source.gif")])
        try bench.run("gif2webp", ["-quiet", bench.path("source.gif"), "-o", bench.path("gif.webp")])
        let everyFrame = DecodingOptions(maxFrames: 100)
        let decoded = try ImageDecoder.decode(.file(path: bench.path("gif.webp")), options: everyFrame)
        let gif = try ImageDecoder.decode(.file(path: bench.path("source.gif")), options: everyFrame)
        let reference = try bench.pillowFrames(bench.path("gif.webp"))
        XCTAssertEqual(decoded.frames.count, 6)
        XCTAssertEqual(reference.pngs.count, 6)
        XCTAssertEqual(decoded.info.loopCount, 0)
        XCTAssertEqual(decoded.frames.map(\.delayCentiseconds), [5, 12, 7, 20, 3, 9])
        for (index, frame) in decoded.frames.enumerated() {
            let expected = try ImageDecoder.decode(.file(path: reference.pngs[index])).frames[0].bitmap
            XCTAssertLessThanOrEqual(WebPWorkbench.maxDifference(frame.bitmap, expected), 2, "frame \(index) against Pillow")
            XCTAssertLessThanOrEqual(WebPWorkbench.maxDifference(frame.bitmap, gif.frames[index].bitmap), 2, "frame \(index) against the GIF")
        }
    }

    func testDelaysAreRoundedToHundredths() {
        XCTAssertEqual([0, 4, 5, 14, 15, 1234, -3].map { WebPAnimationDecoder.centiseconds(milliseconds: $0) }, [0, 0, 1, 1, 2, 123, 0])
    }

    /// `data` with the image data (after the VP8/VP8L header) of every frame from `first` (0-based)
    /// on overwritten with 0xFF, chunk sizes kept.
    static func overwritingImageData(of data: Data, fromFrame first: Int) throws -> Data {
        var bytes = [UInt8](data)
        func size(at offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } }
        func fourCC(at offset: Int) -> String { String(decoding: bytes[offset..<offset + 4], as: UTF8.self) }
        var offset = 12, frame = 0
        while offset + 8 <= bytes.count {
            let chunkSize = size(at: offset + 4)
            if fourCC(at: offset) == "ANMF" {
                if frame >= first {
                    var sub = offset + 8 + 16
                    while sub + 8 <= offset + 8 + chunkSize {
                        let subSize = size(at: sub + 4)
                        let header = ["VP8L": 5, "VP8 ": 10][fourCC(at: sub)]
                        if let header { for index in sub + 8 + header..<sub + 8 + subSize { bytes[index] = 0xFF } }
                        sub += 8 + subSize + subSize % 2
                    }
                }
                frame += 1
            }
            offset += 8 + chunkSize + chunkSize % 2
        }
        return Data(bytes)
    }

    /// A poster of the 300 frames stops early, and keeps the frame the rule picks from the same
    /// frames decoded whole: the first one over 2% above every earlier best.
    func testAPosterStopsEarlyAndKeepsTheFrameTheRulePicks() throws {
        let bench = try WebPWorkbench()
        let webp = try threeHundredFrames(bench)
        let target = PixelSize(width: 48, height: 48)
        let poster = try ImageDecoder.decode(.file(path: webp), options: DecodingOptions(targetSize: target, maxFrames: 300, picksPoster: true))
        let choice = try XCTUnwrap(poster.info.poster)
        XCTAssertLessThan(choice.framesDecoded, 300)
        let frames = try ImageDecoder.decode(
            .file(path: webp), options: DecodingOptions(targetSize: target, maxFrames: choice.framesDecoded)).frames
        var best = 0
        for (index, frame) in frames.enumerated() where PosterPicker.score(frame.bitmap) > PosterPicker.score(frames[best].bitmap) * 1.02 {
            best = index
        }
        XCTAssertEqual(choice.index, best)
        XCTAssertEqual(choice.framesDecoded, best + 1 + PosterPicker.patience)
        XCTAssertEqual(poster.frames[0].bitmap, frames[best].bitmap)
    }
}
