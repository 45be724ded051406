import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// jpeg-decoder's ycck.jpg, a YCCK photograph with Adobe's "U.S. Web Coated (SWOP) v2" profile:
/// converted through it as Pillow's ImageCms converts the CMYK Pillow decodes.
final class ColorConformanceTests: XCTestCase {
    func testCMYKPhotographWithASWOPProfileConvertsLikeImageCms() throws {
        let file = try Corpus.file("jpeg-decoder/reftest/ycck.jpg")
        let decoded = try ImageDecoder.decode(.file(path: file.path))
        XCTAssertEqual(decoded.info.colorProfile.profile?.description, "U.S. Web Coated (SWOP) v2")
        let reference = FileManager.default.temporaryDirectory.appendingPathComponent("ycck-\(UUID().uuidString).srgb")
        defer { try? FileManager.default.removeItem(at: reference) }
        try ColorReferenceScript.run(["decode-convert", file.path, reference.path])
        let rgb = [UInt8](try Data(contentsOf: reference))
        var rgba: [UInt8] = []
        for index in stride(from: 0, to: rgb.count, by: 3) { rgba += rgb[index..<(index + 3)] + [255] }
        let difference = try PixelDifference(decoded.frames[0].bitmap, Bitmap(size: decoded.size, pixels: rgba))
        print("colour ycck.jpg against ImageCms: mean |difference| \(difference.mean) (RGBA samples), max \(difference.maximum)")
        XCTAssertLessThanOrEqual(difference.mean, 1)
        XCTAssertLessThanOrEqual(difference.maximum, 4)
    }
}
