import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// A WebP's ICCP profile converts like the other formats' profiles: as Pillow's ImageCms does
/// (mean absolute difference at most 1, maximum at most 4), stills and every frame of an animation.
final class WebPColorTests: XCTestCase {
    private let width = 96, height = 64

    private func bitmap(seed: UInt64) throws -> Bitmap {
        let rgb = ColorFixtures.saturatedRGB(width: width, height: height, seed: seed)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for pixel in 0..<(width * height) { for channel in 0..<3 { rgba[pixel * 4 + channel] = rgb[pixel * 3 + channel] } }
        return try Bitmap(size: PixelSize(width: width, height: height), pixels: rgba)
    }

    private func decode(_ path: String, _ policy: ColorPolicy) throws -> DecodedImage {
        try ImageDecoder.decode(.file(path: path), options: DecodingOptions(colorPolicy: policy))
    }

    func testAStillsICCPProfileConvertsLikeImageCms() throws {
        let bench = try WebPWorkbench()
        let colorFolder = try ColorFixtures.folder(for: self)
        let source = bench.path("p3.png")
        try PNGEncoder.encode(try bitmap(seed: 3), iccProfile: ColorFixtures.displayP3).write(to: URL(fileURLWithPath: source))
        try bench.run("cwebp", ["-quiet", "-lossless", "-metadata", "icc", source, "-o", "p3.webp"])
        let webp = bench.path("p3.webp")

        XCTAssertEqual(try ImageDecoder.inspect(.file(path: webp)).colorProfile.profile?.description, "Display P3")
        let stored = try decode(webp, .ignore)
        XCTAssertEqual(stored.frames[0].bitmap, try bitmap(seed: 3), "lossless, unconverted")
        let converted = try decode(webp, .convert)
        XCTAssertEqual(converted.info.colorProfile.profile?.iccBytes, ColorFixtures.displayP3)
        let reference = try ColorFixtures.converted(
            ColorFixtures.rgb(stored.frames[0].bitmap), width: width, height: height, icc: ColorFixtures.displayP3, in: colorFolder)
        XCTAssertNotEqual(ColorFixtures.rgb(stored.frames[0].bitmap), reference, "the profile changes these pixels")
        ColorFixtures.assertClose(ColorFixtures.rgb(converted.frames[0].bitmap), reference, "Display P3 WebP")
    }

    /// Frames are converted in a copy: libwebp's canvas, which the next frame blends into, keeps
    /// the stored colours, so every frame converts alike.
    func testEveryFrameOfAnAnimationWithAnICCPProfileConvertsLikeImageCms() throws {
        let bench = try WebPWorkbench()
        let colorFolder = try ColorFixtures.folder(for: self)
        let frames = try (1...3).map { try bench.png(try bitmap(seed: UInt64($0)), "frame\($0).png") }
        try bench.run("img2webp", ["-lossless", "-d", "100"] + frames + ["-o", "anim.webp"])
        try ColorFixtures.write(ColorFixtures.adobeRGB, "adobe.icc", in: bench.folder)
        try bench.run("webpmux", ["-set", "icc", "adobe.icc", "anim.webp", "-o", "anim-adobe.webp"])
        let webp = bench.path("anim-adobe.webp")

        let inspection = try ImageDecoder.inspect(.file(path: webp))
        XCTAssertEqual(inspection.frameCount, 3)
        XCTAssertEqual(inspection.colorProfile.profile?.description, "Adobe RGB (1998)")
        let stored = try decode(webp, .ignore)
        let converted = try decode(webp, .convert)
        XCTAssertEqual(converted.frames.count, 3)
        for (index, (plain, ours)) in zip(stored.frames, converted.frames).enumerated() {
            XCTAssertEqual(plain.bitmap, try bitmap(seed: UInt64(index + 1)), "frame \(index + 1) unconverted")
            let reference = try ColorFixtures.converted(
                ColorFixtures.rgb(plain.bitmap), width: width, height: height, icc: ColorFixtures.adobeRGB, in: colorFolder)
            ColorFixtures.assertClose(ColorFixtures.rgb(ours.bitmap), reference, "Adobe RGB WebP frame \(index + 1)")
        }
    }

    func testAMalformedICCPProfileIsIgnored() throws {
        let bench = try WebPWorkbench()
        try ColorFixtures.write(Array(ColorFixtures.displayP3.prefix(200)), "cut.icc", in: bench.folder)
        let plain = try bench.cwebp(try bitmap(seed: 5), "plain.webp", ["-lossless"])
        try bench.run("webpmux", ["-set", "icc", "cut.icc", plain, "-o", "cut.webp"])
        let decoded = try decode(bench.path("cut.webp"), .convert)
        guard case .malformed = decoded.info.colorProfile else { return XCTFail("\(decoded.info.colorProfile)") }
        XCTAssertEqual(decoded.frames[0].bitmap, try bitmap(seed: 5), "decoded as sRGB")
    }
}
