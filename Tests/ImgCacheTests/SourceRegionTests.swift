import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// `DecodingOptions.sourceRegion` and `ImageRequest.sourceRegion`: a region at its own size is the
/// source's pixels byte for byte (JPEG decoded at 1/1, EXIF orientation applied first), a target
/// applies to the region as to a whole image, and only a region's variant keys change.
final class SourceRegionTests: XCTestCase {
    private func decodeRegion(_ data: Data, _ region: PixelRect, target: PixelSize? = nil) throws -> Bitmap {
        let options = DecodingOptions(targetSize: target, sourceRegion: region)
        return try ImageDecoder.decode(.data(data), options: options).frames[0].bitmap
    }

    func testARegionOfAPNGIsItsPixelsByteForByteTransparentOnesIncluded() throws {
        let scene = TestImages.scene(width: 300, height: 200, translucent: true)
        XCTAssertTrue(stride(from: 3, to: scene.pixels.count, by: 4).contains { scene.pixels[$0] == 0 }, "some pixels are transparent")
        let png = try PNGEncoder.encode(scene)
        for region in [
            PixelRect(x: 17, y: 23, width: 120, height: 90), PixelRect(x: 0, y: 0, width: 300, height: 200),
            PixelRect(x: 299, y: 199, width: 1, height: 1), PixelRect(x: 0, y: 150, width: 300, height: 50),
        ] {
            let sliced = try decodeRegion(png, region)
            XCTAssertEqual(sliced.size, region.size, "\(region)")
            XCTAssertEqual(sliced, try HomeScreenshot.crop(scene, region), "\(region)")
        }
    }

    func testAJPEGRegionDecodesAtFullScaleAndIsTheFullDecodesPixels() throws {
        let scene = TestImages.scene(width: 640, height: 480)
        let rgb = stride(from: 0, to: scene.pixels.count, by: 4).flatMap { scene.pixels[$0..<$0 + 3] }
        let jpeg = try TestJPEG.encode(rgb: rgb, width: 640, height: 480)
        let full = try ImageDecoder.decode(.data(jpeg)).frames[0].bitmap
        let region = PixelRect(x: 87, y: 261, width: 486, height: 200)
        XCTAssertEqual(try decodeRegion(jpeg, region), try HomeScreenshot.crop(full, region))
        let report = try TestJPEG.decodeReporting(jpeg, options: DecodingOptions(sourceRegion: region))
        XCTAssertEqual(report.scaleDenominator, 1)
        XCTAssertEqual(report.decodedSize, PixelSize(width: 640, height: 480))
    }

    func testRegionsOfAnOrientedJPEGAreCutFromTheDisplayedImage() throws {
        let scene = TestImages.scene(width: 64, height: 48)
        let rgb = stride(from: 0, to: scene.pixels.count, by: 4).flatMap { scene.pixels[$0..<$0 + 3] }
        let stored = try TestJPEG.encode(rgb: rgb, width: 64, height: 48)
        let region = PixelRect(x: 5, y: 9, width: 30, height: 21)
        for orientation in ImageOrientation.allCases {
            let exif = EXIFOrientationTests.exifSegment(orientation: orientation.rawValue, littleEndian: true)
            let jpeg = TestJPEG.inserting(marker: 0xE1, payload: exif, into: stored)
            let displayed = try ImageDecoder.decode(.data(jpeg)).frames[0].bitmap
            XCTAssertEqual(try decodeRegion(jpeg, region), try HomeScreenshot.crop(displayed, region), "\(orientation)")
        }
    }

    func testATargetAppliesToTheRegionAsToAWholeImage() throws {
        let scene = TestImages.scene(width: 300, height: 200, translucent: true)
        let region = PixelRect(x: 40, y: 30, width: 200, height: 120)
        let alone = try PNGEncoder.encode(try HomeScreenshot.crop(scene, region))
        for (target, mode) in [(PixelSize(width: 50, height: 50), ContentMode.fit), (PixelSize(width: 64, height: 64), .crop)] {
            var options = DecodingOptions(targetSize: target, sourceRegion: region, contentMode: mode)
            let sliced = try ImageDecoder.decode(.data(PNGEncoder.encode(scene)), options: options).frames[0].bitmap
            options.sourceRegion = nil
            let expected = try ImageDecoder.decode(.data(alone), options: options).frames[0].bitmap
            XCTAssertEqual(sliced.size, mode == .fit ? PixelSize(width: 50, height: 30) : target)
            XCTAssertEqual(sliced.pixels.count, expected.pixels.count)
            let largest = zip(sliced.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max()
            XCTAssertLessThanOrEqual(largest ?? 255, 1, "\(mode): the same filter over the same pixels")
        }
    }

    func testAGIFRegionCutsEveryFrame() throws {
        let encoder = try GIFEncoder(size: PixelSize(width: 48, height: 40), loopCount: 0)
        for seed in 1...3 {
            try encoder.add(ImageFrame(bitmap: TestImages.scene(width: 48, height: 40, seed: UInt64(seed)), delayCentiseconds: 4))
        }
        let gif = try encoder.finish()
        let region = PixelRect(x: 8, y: 4, width: 24, height: 30)
        let full = try ImageDecoder.decode(.data(gif))
        let sliced = try ImageDecoder.decode(.data(gif), options: DecodingOptions(sourceRegion: region))
        XCTAssertEqual(sliced.frames.count, 3)
        XCTAssertEqual(sliced.frames.map(\.bitmap), try full.frames.map { try HomeScreenshot.crop($0.bitmap, region) })
    }

    func testARegionOutsideTheSourceIsRefused() throws {
        let png = try PNGEncoder.encode(TestImages.scene(width: 300, height: 200))
        for region in [
            PixelRect(x: 250, y: 150, width: 51, height: 20), PixelRect(x: -1, y: 0, width: 10, height: 10),
            PixelRect(x: 0, y: 0, width: 0, height: 10), PixelRect(x: 0, y: 190, width: 10, height: 11),
        ] {
            XCTAssertThrowsError(try decodeRegion(png, region)) { error in
                XCTAssertEqual(error as? ImgCacheError, .invalidArgument("source region \(region) does not fit in the 300x200 source"))
            }
        }
    }

    func testVariantKeysGainARegionOnlyWhenOneIsSet() throws {
        let url = URL(string: "https://example.test/wallpaper.png")!
        let configuration = ImagePipeline.Configuration()
        let plain = try RequestPlan(ImageRequest(url: url, outputFormat: .png), configuration)
        XCTAssertEqual(plain.variantKey, "https://example.test/wallpaper.png#imgcache-variant:v2;size=source;mode=fit;"
            + "upscale=0;frames=1;budget=15728640;format=png")
        let region = PixelRect(x: 87, y: 261, width: 1032, height: 486)
        let slice = try RequestPlan(ImageRequest(url: url, outputFormat: .png, sourceRegion: region), configuration)
        XCTAssertEqual(slice.variantKey, plain.variantKey + ";region=1032x486+87+261")
        XCTAssertEqual(slice.options.sourceRegion, region)
    }

    func testThePipelineStoresARegionAsAVariantOfItsOriginal() async throws {
        let loader = CountingLoader()
        let url = URL(string: "https://example.test/wallpaper.png")!
        let scene = TestImages.scene(width: 300, height: 200)
        loader.serve(url, .init(data: try PNGEncoder.encode(scene)))
        var disk = DiskCache.Configuration(
            root: FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-regions-\(UUID().uuidString)"))
        disk.syncWrites = false
        defer { try? FileManager.default.removeItem(at: disk.root) }
        let pipeline = try ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, diskCache: disk))
        let regions = [PixelRect(x: 0, y: 0, width: 100, height: 100), PixelRect(x: 150, y: 60, width: 140, height: 130)]
        let summaries = await pipeline.prefetch(regions.map { ImageRequest(url: url, outputFormat: .png, sourceRegion: $0) })
        XCTAssertEqual(loader.loads, 1)
        for (region, summary) in zip(regions, summaries) {
            let file = try XCTUnwrap(summary.get().fileURL)
            XCTAssertEqual(try ImageDecoder.decode(.file(path: file.path)).frames[0].bitmap, try HomeScreenshot.crop(scene, region))
        }
        let outside = ImageRequest(url: url, outputFormat: .png, sourceRegion: PixelRect(x: 250, y: 0, width: 100, height: 10))
        do {
            _ = try await pipeline.prepare(outside)
            XCTFail("a region outside the source must fail")
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .invalidArgument("source region 100x10+250+0 does not fit in the 300x200 source"))
        }
    }
}
