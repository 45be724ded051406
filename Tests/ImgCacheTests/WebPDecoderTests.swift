import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImgCache

/// WebP stills made at test time with cwebp: decoded at full size, to targets, to regions, against
/// dwebp's pixels resampled by our own PNG decoder.
final class WebPDecoderTests: XCTestCase {
    private let scene = TestImages.scene(width: 300, height: 200, translucent: true)

    func testLosslessWithAlphaDecodesToTheSourcePixelsExactly() throws {
        let bench = try WebPWorkbench()
        let webp = try bench.cwebp(scene, "lossless.webp", ["-lossless", "-exact"])
        let decoded = try ImageDecoder.decode(.file(path: webp))
        XCTAssertEqual(decoded.info, ImageInfo(format: .webp, sourceSize: PixelSize(width: 300, height: 200)))
        XCTAssertEqual(decoded.frames, [ImageFrame(bitmap: scene)])
    }

    /// A reduction of 2 or less decodes at full size and resamples like a PNG of the same pixels.
    func testSmallReductionsEqualDwebpsPixelsResampledByThePNGDecoder() throws {
        let bench = try WebPWorkbench()
        for (name, options) in [("lossy.webp", ["-q", "80", "-alpha_q", "100"]), ("lossless.webp", ["-lossless"])] {
            let webp = try bench.cwebp(scene, name, options)
            let reference = try bench.dwebpPNG(webp)
            for target in [PixelSize(width: 200, height: 200), PixelSize(width: 151, height: 120)] {
                let options = DecodingOptions(targetSize: target)
                let decoded = try ImageDecoder.decode(.file(path: webp), options: options).frames[0].bitmap
                let expected = try ImageDecoder.decode(.file(path: reference), options: options).frames[0].bitmap
                XCTAssertTrue(decoded == expected, "\(name) to \(target)")
            }
        }
    }

    /// Larger reductions let libwebp scale to twice the output first: close to the full-size
    /// resampling, not equal.
    func testLargeReductionsAreCloseToDwebpsPixelsResampled() throws {
        let bench = try WebPWorkbench()
        let large = TestImages.scene(width: 1200, height: 800, translucent: true, seed: 7)
        for (name, options) in [("lossy.webp", ["-q", "90", "-alpha_q", "100"]), ("lossless.webp", ["-lossless"])] {
            let webp = try bench.cwebp(large, name, options)
            let reference = try bench.dwebpPNG(webp)
            let options = DecodingOptions(targetSize: PixelSize(width: 150, height: 150))
            let decoded = try ImageDecoder.decode(.file(path: webp), options: options).frames[0].bitmap
            let expected = try ImageDecoder.decode(.file(path: reference), options: options).frames[0].bitmap
            XCTAssertEqual(decoded.size, PixelSize(width: 150, height: 100))
            XCTAssertGreaterThan(WebPWorkbench.premultipliedPSNR(decoded, expected), 40, name)
        }
    }

    func testTheScalePlanKeepsTwiceTheOutputAndCropsToTheRegion() {
        let source = PixelSize(width: 6000, height: 4000)
        let fit = ResizeGeometry.plan(source: source, target: PixelSize(width: 1014, height: 474), mode: .fit, allowsUpscaling: false)
        let plan = WebPStillPlan(source: source, geometries: [fit])
        XCTAssertEqual(plan.crop, PixelRect(x: 0, y: 0, width: 6000, height: 4000))
        XCTAssertEqual(plan.decodedSize, PixelSize(width: 1422, height: 948), "twice the 711x474 output")
        XCTAssertEqual(WebPStillPlan(source: source, geometries: [.identity(source)]).decodedSize, source)

        let region = PixelRect(x: 101, y: 51, width: 1000, height: 500)
        let crop = ResizeGeometry.plan(source: region.size, target: PixelSize(width: 100, height: 100), mode: .crop, allowsUpscaling: false)
            .placed(at: region, in: source)
        let cropped = WebPStillPlan(source: source, geometries: [crop])
        XCTAssertEqual(crop.sourceX, 351, "the centred 500x500 of the region")
        XCTAssertEqual(cropped.crop, PixelRect(x: 348, y: 48, width: 505, height: 505), "2 pixels more a side, left and top even")
        XCTAssertEqual(cropped.decodedSize, PixelSize(width: 202, height: 202))
        XCTAssertEqual(cropped.geometries[0].sourceX, 3)
        XCTAssertEqual(cropped.geometries[0].sourceSize, PixelSize(width: 505, height: 505))
    }

    /// Regions are cropped by libwebp before decoding (`WebPStillPlan`, 2 pixels of margin): a
    /// lossless file's region equals the full decode's; a lossy file's equals dwebp's decode of the
    /// same crop (libwebp's lossy crops differ slightly from its full decodes) and is close to the
    /// full decode's.
    func testRegionsAtTheirOwnSizeAreLibwebpsCrops() throws {
        let bench = try WebPWorkbench()
        let lossless = try bench.cwebp(scene, "lossless.webp", ["-lossless", "-exact"])
        let lossy = try bench.cwebp(scene, "lossy.webp", ["-q", "80"])
        let losslessFull = try ImageDecoder.decode(.file(path: lossless)).frames[0].bitmap
        let lossyFull = try ImageDecoder.decode(.file(path: lossy)).frames[0].bitmap
        for region in [PixelRect(x: 31, y: 17, width: 120, height: 90), PixelRect(x: 0, y: 0, width: 1, height: 1),
                       PixelRect(x: 299, y: 199, width: 1, height: 1), PixelRect(x: 100, y: 0, width: 200, height: 200)] {
            let options = DecodingOptions(sourceRegion: region)
            XCTAssertTrue(try ImageDecoder.decode(.file(path: lossless), options: options).frames[0].bitmap == crop(losslessFull, region))

            let decoded = try ImageDecoder.decode(.file(path: lossy), options: options).frames[0].bitmap
            let plan = WebPStillPlan(source: scene.size, geometries: [try options.geometry(forStoredSize: scene.size, orientation: .up)])
            let cropped = bench.path("crop-\(region.x)-\(region.y).png")
            try bench.run("dwebp", ["-quiet", lossy, "-crop", "\(plan.crop.x)", "\(plan.crop.y)", "\(plan.crop.width)",
                                    "\(plan.crop.height)", "-o", cropped])
            let dwebpCrop = try ImageDecoder.decode(.file(path: cropped)).frames[0].bitmap
            let inCrop = PixelRect(x: region.x - plan.crop.x, y: region.y - plan.crop.y, width: region.width, height: region.height)
            XCTAssertTrue(decoded == crop(dwebpCrop, inCrop), "\(region)")
            XCTAssertLessThanOrEqual(WebPWorkbench.maxDifference(decoded, crop(lossyFull, region)), 8, "\(region)")
        }
    }

    /// Fill and crop modes, and a region with a target, match the PNG decoder on dwebp's pixels.
    func testFillCropAndRegionsToTargetsMatchThePNGDecoder() throws {
        let bench = try WebPWorkbench()
        let large = TestImages.scene(width: 900, height: 600, translucent: true, seed: 3)
        let webp = try bench.cwebp(large, "lossy.webp", ["-q", "90", "-alpha_q", "100"])
        let reference = try bench.dwebpPNG(webp)
        let cases = [
            DecodingOptions(targetSize: PixelSize(width: 100, height: 100), contentMode: .fill),
            DecodingOptions(targetSize: PixelSize(width: 100, height: 100), contentMode: .crop),
            DecodingOptions(targetSize: PixelSize(width: 64, height: 48), sourceRegion: PixelRect(x: 333, y: 101, width: 401, height: 300)),
        ]
        for options in cases {
            let decoded = try ImageDecoder.decode(.file(path: webp), options: options).frames[0].bitmap
            let expected = try ImageDecoder.decode(.file(path: reference), options: options).frames[0].bitmap
            XCTAssertEqual(decoded.size, expected.size)
            XCTAssertGreaterThan(WebPWorkbench.premultipliedPSNR(decoded, expected), 38, "\(options)")
        }
    }

    /// One decode for several targets, scaled by libwebp for the largest: that one equals its own
    /// decode, and every one is close to dwebp's full-size pixels resampled.
    func testSeveralTargetsDecodeOnceAtTheLargestTargetsScale() throws {
        let bench = try WebPWorkbench()
        let large = TestImages.scene(width: 1200, height: 800, seed: 5)
        let webp = try bench.cwebp(large, "lossy.webp", ["-q", "90"])
        let reference = try bench.dwebpPNG(webp)
        let targets = [400, 120, 50].map { DecodingOptions(targetSize: PixelSize(width: $0, height: $0)) }
        let images = Mutex([Int: DecodedImage]())
        try ImageDecoder.decode(.file(path: webp), targets: targets) { index, image in images.withLock { $0[index] = image } }
        for (index, options) in targets.enumerated() {
            let alone = try ImageDecoder.decode(.file(path: webp), options: options).frames[0].bitmap
            let together = try XCTUnwrap(images.withLock { $0[index] }).frames[0].bitmap
            let expected = try ImageDecoder.decode(.file(path: reference), options: options).frames[0].bitmap
            if index == 0 { XCTAssertTrue(together == alone) }
            XCTAssertGreaterThan(PSNR.of(together.pixels, expected.pixels), 40, "target \(index)")
        }
    }

    func testInspectReadsTheHeadersOfAStill() throws {
        let bench = try WebPWorkbench()
        let webp = try bench.cwebp(scene, "lossy.webp", ["-q", "50"])
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: webp)), ImageInspection(format: .webp, size: PixelSize(width: 300, height: 200)))
        XCTAssertEqual(try ImageDecoder.inspect(.data(Data(contentsOf: URL(fileURLWithPath: webp)))).size, PixelSize(width: 300, height: 200))
    }

    func testTheICCProfileIsReadAsStored() throws {
        let bench = try WebPWorkbench()
        let script = """
            import sys
            from PIL import Image, ImageCms
            profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
            Image.new("RGB", (40, 30), (200, 100, 50)).save(sys.argv[1], icc_profile=profile)
            open(sys.argv[2], "wb").write(profile)
            """
        try bench.run("python3", ["-c", script, bench.path("icc.png"), bench.path("profile.icc")])
        try bench.run("cwebp", ["-quiet", "-metadata", "icc", bench.path("icc.png"), "-o", bench.path("icc.webp")])
        let profile = try [UInt8](Data(contentsOf: bench.folder.appendingPathComponent("profile.icc")))
        let withICC = try Data(contentsOf: bench.folder.appendingPathComponent("icc.webp"))
        XCTAssertGreaterThan(profile.count, 100)
        XCTAssertEqual(withICC.withUnsafeBytes { WebPDecoder.iccProfile(in: $0) }, profile)
        XCTAssertEqual(withICC.dropLast(10).withUnsafeBytes { WebPDecoder.iccProfile(in: $0) }, profile,
                       "the ICCP chunk comes before the image data")
        XCTAssertEqual(try ImageDecoder.decode(.data(withICC)).size, PixelSize(width: 40, height: 30), "colours are not converted")

        let withoutICC = try Data(contentsOf: URL(fileURLWithPath: bench.cwebp(scene, "plain.webp", ["-q", "50"])))
        XCTAssertNil(withoutICC.withUnsafeBytes { WebPDecoder.iccProfile(in: $0) })
    }

    private func crop(_ bitmap: Bitmap, _ region: PixelRect) -> Bitmap {
        var pixels: [UInt8] = []
        for y in region.y..<region.y + region.height {
            let start = (y * bitmap.size.width + region.x) * 4
            pixels += bitmap.pixels[start..<start + region.width * 4]
        }
        return Bitmap(unchecked: region.size, pixels: pixels)
    }
}
