import CLCMS
import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// Decodes with an ICC profile convert to sRGB as Pillow's ImageCms (Little CMS, perceptual) does:
/// mean absolute difference at most 1 and maximum at most 4 in every channel.
final class ColorConversionTests: XCTestCase {
    private let width = 96, height = 64

    private func decode(_ path: String, _ policy: ColorPolicy, target: PixelSize? = nil) throws -> DecodedImage {
        try ImageDecoder.decode(.file(path: path), options: DecodingOptions(targetSize: target, colorPolicy: policy))
    }

    func testDisplayP3AndAdobeRGBFilesConvertLikeImageCms() throws {
        let folder = try ColorFixtures.folder(for: self)
        let pixels = ColorFixtures.saturatedRGB(width: width, height: height)
        var profiles = [("Display P3", ColorFixtures.displayP3), ("Adobe RGB (1998)", ColorFixtures.adobeRGB)]
        if let a98 = ColorFixtures.ghostscriptA98 { profiles.append(("Artifex Software A98 ICC Profile", a98)) }
        for (name, icc) in profiles {
            for fileExtension in ["jpg", "png"] {
                let path = try ColorFixtures.encode(pixels, width: width, height: height, icc: icc, as: "\(name).\(fileExtension)", in: folder)
                // The stored pixels (as libjpeg decodes them), converted by Pillow, against imgcache's conversion.
                let stored = ColorFixtures.rgb(try decode(path, .ignore).frames[0].bitmap)
                let converted = try decode(path, .convert)
                XCTAssertEqual(converted.info.colorProfile.profile?.description, name)
                XCTAssertEqual(converted.info.colorProfile.profile?.iccBytes, icc)
                XCTAssertEqual(try ImageDecoder.inspect(.file(path: path)).colorProfile.profile?.description, name)
                let reference = try ColorFixtures.converted(stored, width: width, height: height, icc: icc, in: folder)
                XCTAssertNotEqual(stored, reference, "the profile changes these pixels")
                ColorFixtures.assertClose(ColorFixtures.rgb(converted.frames[0].bitmap), reference, "\(name) \(fileExtension)")
            }
        }
    }

    /// Rows are converted before they are resampled: on slowly changing pixels that is close to
    /// converting the resampled image.
    func testConversionAppliesWhenDecodingToATarget() throws {
        let folder = try ColorFixtures.folder(for: self)
        let (sourceWidth, sourceHeight) = (256, 192)
        let pixels = ColorFixtures.smoothRGB(width: sourceWidth, height: sourceHeight)
        let target = PixelSize(width: 64, height: 48)
        for fileExtension in ["jpg", "png"] {
            let path = try ColorFixtures.encode(
                pixels, width: sourceWidth, height: sourceHeight, icc: ColorFixtures.displayP3, as: "p3.\(fileExtension)", in: folder)
            let stored = ColorFixtures.rgb(try decode(path, .ignore, target: target).frames[0].bitmap)
            let converted = try decode(path, .convert, target: target).frames[0].bitmap
            XCTAssertEqual(converted.size, target)
            let reference = try ColorFixtures.converted(stored, width: 64, height: 48, icc: ColorFixtures.displayP3, in: folder)
            ColorFixtures.assertClose(ColorFixtures.rgb(converted), reference, "Display P3 \(fileExtension) to 64x48")
        }
    }

    /// Matrix-shaper RGB profiles take the fixed-point path (it agrees with Little CMS within 1, or
    /// is not made); other profiles go through Little CMS.
    func testMatrixShaperProfilesTakeTheFastPath() throws {
        let sRGB = LCMSProfile.sRGB()
        for (icc, format, expected) in [(ColorFixtures.displayP3, IMGLCMS_TYPE_RGBA_8, true), (ColorFixtures.adobeRGB, IMGLCMS_TYPE_RGBA_8, true),
                                        (ColorFixtures.grayGamma18, IMGLCMS_TYPE_GRAY_IN_RGBA_8, false)] {
            let source = try XCTUnwrap(LCMSProfile(bytes: icc))
            let reference = try XCTUnwrap(withExtendedLifetime(sRGB) {
                cmsCreateTransformTHR(nil, source.handle, format, sRGB.handle, IMGLCMS_TYPE_RGBA_8, ColorTransform.intent, UInt32(cmsFLAGS_NOCACHE))
            })
            defer { cmsDeleteTransform(reference) }
            let fastPath = MatrixShaperConversion(source: source, intent: ColorTransform.intent, flags: UInt32(cmsFLAGS_NOCACHE), reference: reference)
            XCTAssertEqual(fastPath != nil, expected)
        }
    }

    /// Untagged files and sRGB-tagged ones are decoded byte for byte as before colour management.
    func testUntaggedAndSRGBFilesAreUnchanged() throws {
        let folder = try ColorFixtures.folder(for: self)
        let pixels = ColorFixtures.saturatedRGB(width: width, height: height)
        for fileExtension in ["jpg", "png"] {
            var profiles: [(String, [UInt8]?)] = [("untagged", nil), ("srgb", ColorFixtures.sRGB)]
            if let ghostscript = ColorFixtures.ghostscriptSRGB { profiles.append(("ghostscript srgb", ghostscript)) }
            for (name, icc) in profiles {
                let path = try ColorFixtures.encode(pixels, width: width, height: height, icc: icc, as: "\(name).\(fileExtension)", in: folder)
                let converted = try decode(path, .convert)
                XCTAssertEqual(converted.frames, try decode(path, .ignore).frames, "\(name) \(fileExtension)")
                if icc == nil {
                    XCTAssertEqual(converted.info.colorProfile, .none)
                } else {
                    XCTAssertEqual(converted.info.colorProfile.profile?.isSRGB, true, "\(name) \(fileExtension)")
                }
            }
        }
    }

    func testGreyscaleJPEGWithAGreyProfileConvertsLikeImageCms() throws {
        let folder = try ColorFixtures.folder(for: self)
        let grey = (0..<(width * height)).map { UInt8(($0 * 7) % 256) }
        let path = try ColorFixtures.encode(grey, width: width, height: height, mode: "L", icc: ColorFixtures.grayGamma18, as: "grey.jpg", in: folder)
        let stored = try decode(path, .ignore).frames[0].bitmap.pixels.enumerated().compactMap { $0.offset % 4 == 0 ? $0.element : nil }
        let converted = try decode(path, .convert)
        XCTAssertEqual(converted.info.colorProfile.profile?.colorSpace, .gray)
        let reference = try ColorFixtures.converted(stored, width: width, height: height, mode: "L", icc: ColorFixtures.grayGamma18, in: folder)
        ColorFixtures.assertClose(ColorFixtures.rgb(converted.frames[0].bitmap), reference, "Gray Gamma 1.8 jpg")
    }

    /// A CMYK JPEG with a CMYK profile (Ghostscript's, from Debian's libgs-common) is converted as
    /// ImageCms converts the CMYK Pillow decodes; without a profile the plain formula stays.
    func testCMYKJPEGWithACMYKProfileConvertsLikeImageCms() throws {
        guard let cmyk = ColorFixtures.ghostscriptCMYK else { throw XCTSkip("libgs-common's default_cmyk.icc is not installed") }
        let folder = try ColorFixtures.folder(for: self)
        var random = SeededGenerator(seed: 3)
        var pixels: [UInt8] = []
        for index in 0..<(width * height) {
            let ink = (0..<3).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            pixels += ink + [UInt8(index % 200)]
        }
        let path = try ColorFixtures.encode(pixels, width: width, height: height, mode: "CMYK", icc: cmyk, as: "cmyk.jpg", in: folder)
        let converted = try decode(path, .convert)
        XCTAssertEqual(converted.info.colorProfile.profile?.colorSpace, .cmyk)
        let referencePath = folder.appendingPathComponent("cmyk.srgb").path
        try ColorReferenceScript.run(["decode-convert", path, referencePath])
        let reference = [UInt8](try Data(contentsOf: URL(fileURLWithPath: referencePath)))
        ColorFixtures.assertClose(ColorFixtures.rgb(converted.frames[0].bitmap), reference, "CMYK jpg")
        XCTAssertTrue(converted.frames[0].bitmap.isOpaque)
        XCTAssertNotEqual(converted.frames, try decode(path, .ignore).frames, "without the profile, the formula")
    }

    /// PNG's gAMA: 1/2.2 is taken as sRGB (nothing changes); another gamma is applied with sRGB's
    /// primaries, as the profile built from it converts in ImageCms.
    func testPNGGammaIsAppliedUnlessItIsTwoPointTwo() throws {
        let folder = try ColorFixtures.folder(for: self)
        let pixels = ColorFixtures.saturatedRGB(width: width, height: height)
        let srgbLike = try ColorFixtures.encode(pixels, width: width, height: height, icc: nil, as: "g45.png", in: folder, extra: ["--gama", "0.45455"])
        XCTAssertEqual(try decode(srgbLike, .convert).frames, try decode(srgbLike, .ignore).frames)
        let linear = try ColorFixtures.encode(pixels, width: width, height: height, icc: nil, as: "g100.png", in: folder, extra: ["--gama", "1.0"])
        let converted = try decode(linear, .convert)
        let profile = try XCTUnwrap(converted.info.colorProfile.profile)
        XCTAssertEqual(profile.description, "PNG gAMA 1.00000")
        let reference = try ColorFixtures.converted(pixels, width: width, height: height, icc: profile.iccBytes, in: folder)
        ColorFixtures.assertClose(ColorFixtures.rgb(converted.frames[0].bitmap), reference, "PNG gAMA 1.0")
    }
}
