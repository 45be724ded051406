import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// A request's gravity places its crop and enters its variant key (only for a crop, and only when
/// not the centre, so that keys made before gravities existed stay valid).
final class CropGravityTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-gravity-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    /// 60x180 in three bands, top to bottom: red, green, blue.
    private func bands() throws -> Data {
        var bitmap = Bitmap(size: PixelSize(width: 60, height: 180))
        for y in 0..<180 {
            let colour: [UInt8] = y < 60 ? [255, 0, 0, 255] : y < 120 ? [0, 255, 0, 255] : [0, 0, 255, 255]
            for x in 0..<60 { bitmap.pixels.replaceSubrange((y * 60 + x) * 4..<(y * 60 + x) * 4 + 4, with: colour) }
        }
        return try PNGEncoder.encode(bitmap)
    }

    func testEachGravityKeepsItsBandAndIsAVariantOfItsOwn() async throws {
        let loader = CountingLoader()
        let url = URL(string: "https://example.test/bands.png")!
        loader.serve(url, .init(data: try bands()))
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        let pipeline = try ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, diskCache: disk))
        let target = ImageTarget.pixels(PixelSize(width: 30, height: 30))
        let cases: [(CropGravity, [UInt8], String)] = [
            (.north, [255, 0, 0, 255], ";gravity=north"), (.center, [0, 255, 0, 255], ""),
            (.south, [0, 0, 255, 255], ";gravity=south"), (.focus(x: 0.5, y: 0.1), [255, 0, 0, 255], ";gravity=focus:0.5,0.1"),
        ]
        let centreKey = try await pipeline.prepare(ImageRequest(url: url, target: target, contentMode: .crop)).variantKey
        var keys: Set<String> = []
        for (gravity, colour, component) in cases {
            let response = try await pipeline.image(for: ImageRequest(url: url, target: target, contentMode: .crop, gravity: gravity))
            let pixels = response.image.frames[0].bitmap.pixels
            XCTAssertEqual(response.pixelSize, PixelSize(width: 30, height: 30))
            // Every pixel of the 30x30 window lies in one band (the window is 60 source rows), within
            // the resampler's rounding.
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                let pixel = pixels[offset..<offset + 4].map(Int.init)
                guard zip(pixel, colour).allSatisfy({ abs($0 - Int($1)) <= 2 }) else {
                    return XCTFail("\(gravity): pixel \(offset / 4) is \(pixel), not \(colour)")
                }
            }
            XCTAssertEqual(response.variantKey, centreKey + component, "\(gravity)")
            keys.insert(response.variantKey)
        }
        XCTAssertEqual(keys.count, 4)
        XCTAssertEqual(loader.loads, 1, "one download for every placement")
        // A fit has no crop to place: its key ignores the gravity.
        let fit = try await pipeline.prepare(ImageRequest(url: url, target: target, gravity: .south))
        let plainFit = try await pipeline.prepare(ImageRequest(url: url, target: target))
        XCTAssertEqual(fit.variantKey, plainFit.variantKey)
        do {
            _ = try await pipeline.prepare(ImageRequest(url: url, target: target, contentMode: .crop, gravity: .focus(x: 2, y: 0)))
            XCTFail("a focal point outside the image was accepted")
        } catch let error as ImgCacheError {
            guard case .invalidArgument = error else { return XCTFail("\(error)") }
        }
    }
}
