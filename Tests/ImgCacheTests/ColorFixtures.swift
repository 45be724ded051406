import CLCMS
import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// Profiles made with Little CMS, pictures, and Pillow/ImageCms references for the colour tests.
enum ColorFixtures {
    typealias Primaries = (red: (Double, Double), green: (Double, Double), blue: (Double, Double))

    /// Display P3 as Apple's: P3 primaries, D65 white, sRGB's tone curve.
    static let displayP3 = rgbProfile(
        primaries: ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060)), curve: sRGBCurve(), description: "Display P3")
    /// Adobe RGB (1998): its primaries, D65 white, gamma 563/256.
    static let adobeRGB = rgbProfile(
        primaries: ((0.64, 0.33), (0.21, 0.71), (0.15, 0.06)), curve: cmsBuildGamma(nil, 563.0 / 256)!,
        description: "Adobe RGB (1998)")
    /// Greyscale with gamma 1.8 and a D50 white, as Photoshop's "Gray Gamma 1.8".
    static let grayGamma18: [UInt8] = {
        let curve = cmsBuildGamma(nil, 1.8)!
        defer { cmsFreeToneCurve(curve) }
        return save(cmsCreateGrayProfileTHR(nil, cmsD50_xyY(), curve)!, description: "Gray Gamma 1.8")
    }()
    /// Little CMS's own sRGB profile.
    static let sRGB = save(cmsCreate_sRGBProfileTHR(nil)!, description: "sRGB built-in")
    /// A CMYK profile from Debian's libgs-common (Ghostscript's default), nil when not installed.
    static let ghostscriptCMYK = ghostscriptProfile("default_cmyk.icc")
    /// An ICC v2 Adobe RGB profile from libgs-common ("Artifex Software A98 ICC Profile"), nil when
    /// not installed: Little CMS compensates its black point when converting to its v4 sRGB.
    static let ghostscriptA98 = ghostscriptProfile("a98.icc")
    /// Ghostscript's ICC v2 sRGB profile from libgs-common, nil when not installed: sRGB in
    /// effect, though not Little CMS's bytes.
    static let ghostscriptSRGB = ghostscriptProfile("srgb.icc")

    private static func ghostscriptProfile(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/\(name)").map { [UInt8]($0) }
    }

    private static func sRGBCurve() -> OpaquePointer {
        let parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        return cmsBuildParametricToneCurve(nil, 4, parameters)!
    }

    private static func rgbProfile(primaries: Primaries, curve: OpaquePointer, description: String) -> [UInt8] {
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: primaries.red.0, y: primaries.red.1, Y: 1),
            Green: cmsCIExyY(x: primaries.green.0, y: primaries.green.1, Y: 1),
            Blue: cmsCIExyY(x: primaries.blue.0, y: primaries.blue.1, Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return save(cmsCreateRGBProfileTHR(nil, &white, &triple, &curves)!, description: description)
    }

    private static func save(_ profile: cmsHPROFILE, description: String) -> [UInt8] {
        defer { cmsCloseProfile(profile) }
        let text = cmsMLUalloc(nil, 1)!
        defer { cmsMLUfree(text) }
        cmsMLUsetASCII(text, "en", "US", description)
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(text))
        var count: UInt32 = 0
        cmsSaveProfileToMem(profile, nil, &count)
        var bytes = [UInt8](repeating: 0, count: Int(count))
        cmsSaveProfileToMem(profile, &bytes, &count)
        return bytes
    }

    /// RGB pixels of saturated colours: random ones, the primaries and secondaries at full and half
    /// strength, and ramps of each.
    static func saturatedRGB(width: Int, height: Int, seed: UInt64 = 7) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        let corners: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255], [255, 0, 255],
                                  [128, 0, 0], [0, 128, 0], [0, 0, 128], [255, 255, 255], [0, 0, 0]]
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                if y < corners.count {
                    pixels += corners[y].map { UInt8(Int($0) * x / max(1, width - 1)) }
                } else if (x + y) % 3 == 0 {
                    pixels += corners[Int(random.next() % UInt64(corners.count))]
                } else {
                    pixels += (0..<3).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                }
            }
        }
        return pixels
    }

    /// RGB pixels that change slowly (gradients, kept from the extremes where converting clips),
    /// so that resampling before or after converting gives nearly the same result.
    static func smoothRGB(width: Int, height: Int) -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(width - 1), v = Double(y) / Double(height - 1)
                pixels += [u, (1 - u) * v, 1 - v].map { UInt8((90 + 90 * $0).rounded()) }
            }
        }
        return pixels
    }

    /// A fresh temporary folder, removed when `test` ends.
    static func folder(for test: XCTestCase) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-color-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// Writes `bytes` to `name` in `folder` and returns its path.
    @discardableResult
    static func write(_ bytes: [UInt8], _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes `pixels` (RGB, L or CMYK per `mode`) as `name` in `folder` with `icc` embedded (none when nil).
    static func encode(
        _ pixels: [UInt8], width: Int, height: Int, mode: String = "RGB", icc: [UInt8]?, as name: String, in folder: URL,
        extra: [String] = []
    ) throws -> String {
        let raw = try write(pixels, name + ".raw", in: folder)
        let iccPath = try icc.map { try write($0, name + ".icc", in: folder) } ?? "-"
        let path = folder.appendingPathComponent(name).path
        try ColorReferenceScript.run(["encode", raw, "\(width)", "\(height)", mode, iccPath, path] + extra)
        return path
    }

    /// `pixels` converted by Pillow from `icc` to sRGB, as RGB.
    static func converted(_ pixels: [UInt8], width: Int, height: Int, mode: String = "RGB", icc: [UInt8], in folder: URL) throws -> [UInt8] {
        let name = UUID().uuidString
        let raw = try write(pixels, name + ".raw", in: folder)
        let iccPath = try write(icc, name + ".icc", in: folder)
        let output = folder.appendingPathComponent(name + ".srgb").path
        try ColorReferenceScript.run(["convert", raw, "\(width)", "\(height)", mode, iccPath, output])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// The RGB of RGBA pixels.
    static func rgb(_ bitmap: Bitmap) -> [UInt8] {
        bitmap.pixels.enumerated().compactMap { $0.offset % 4 == 3 ? nil : $0.element }
    }

    /// Asserts that `ours` is within a mean absolute difference of 1 and a maximum of 4 of
    /// `reference` in every channel (RGB), and prints the figures.
    static func assertClose(_ ours: [UInt8], _ reference: [UInt8], _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(ours.count, reference.count, label, file: file, line: line)
        guard ours.count == reference.count else { return }
        for channel in 0..<3 {
            var sum = 0, maximum = 0
            for index in stride(from: channel, to: ours.count, by: 3) {
                let difference = abs(Int(ours[index]) - Int(reference[index]))
                sum += difference
                maximum = max(maximum, difference)
            }
            let mean = Double(sum) / Double(ours.count / 3)
            print("colour \(label) channel \("RGB".map { $0 }[channel]): mean |difference| \(String(format: "%.3f", mean)), max \(maximum)")
            XCTAssertLessThanOrEqual(mean, 1, "\(label) channel \(channel) mean", file: file, line: line)
            XCTAssertLessThanOrEqual(maximum, 4, "\(label) channel \(channel) max", file: file, line: line)
        }
    }
}
