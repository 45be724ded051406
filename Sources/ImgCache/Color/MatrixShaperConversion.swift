import CLCMS
import Foundation

/// A fast path for the usual case, an RGB matrix-shaper profile (Display P3, Adobe RGB and most
/// camera and display profiles) to sRGB: per-channel tables to linear light, one 3x3 matrix and
/// offset, and a table back to sRGB, all taken from Little CMS (the source's tone curves, and the
/// matrix and offset measured on Little CMS's own float transform to linear sRGB, with whatever
/// black point compensation it applies). Several times the speed of `cmsDoTransform` on 8-bit
/// RGBA. Made only when it agrees with Little CMS's 8-bit transform within 1 on a 17x17x17 grid of
/// colours; otherwise the caller uses Little CMS.
final class MatrixShaperConversion {
    /// Linear light is fixed point with 14 fractional bits (as Little CMS's own 8-bit matrix-shaper
    /// path), and the table back to sRGB has an entry per step: sRGB's steep start (12.92 at black)
    /// moves an output by at most a fifth of a step between entries.
    private static let fractionBits = 14
    private static let one = 1 << fractionBits

    /// 3 x 256 linear values, red's first.
    private let linear: UnsafeMutablePointer<Int>
    /// Row-major 3x3 matrix, then the 3 offsets (scaled by `one` once more, as the products are).
    private let matrix: [Int]
    /// sRGB values of the linear values 0...one, made once: sRGB's 8-bit value v covers linear light
    /// from the decoding of v - 0.5 to that of v + 0.5, so 255 thresholds fill the table.
    private static let encoding: [UInt8] = {
        let thresholds = (1..<256).map { value in
            let encoded = (Double(value) - 0.5) / 255
            return (encoded <= 0.040_45 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)) * Double(one)
        }
        var table = [UInt8](repeating: 0, count: one + 1)
        var value = 0
        for step in 0...one {
            while value < 255 && Double(step) >= thresholds[value] { value += 1 }
            table[step] = UInt8(value)
        }
        return table
    }()

    /// Nil when `source` is not an RGB matrix-shaper, or the fast path disagrees with `reference`
    /// (Little CMS's transform from `source` to sRGB on RGBA8).
    init?(source: LCMSProfile, intent: UInt32, flags: UInt32, reference: cmsHTRANSFORM) {
        guard cmsGetColorSpace(source.handle) == cmsSigRgbData, cmsIsMatrixShaper(source.handle) != 0,
              let measured = Self.measureMatrix(source: source, intent: intent, flags: flags),
              measured.allSatisfy({ abs($0) < 64 })
        else { return nil }
        let curves = [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag].compactMap { cmsReadTag(source.handle, $0) }
        guard curves.count == 3 else { return nil }
        let one = Float(Self.one)
        // Offsets carry half a step, so that the shift in `apply` rounds rather than truncates.
        matrix = measured.enumerated().map { index, value in
            index < 9 ? Int((value * one).rounded()) : Int((value * one * one).rounded()) + Self.one / 2
        }
        linear = .allocate(capacity: 3 * 256)
        for (channel, curve) in curves.enumerated() {
            for value in 0..<256 {
                let light = min(max(cmsEvalToneCurveFloat(OpaquePointer(curve), Float(value) / 255), 0), 1)
                linear[channel * 256 + value] = Int((light * one).rounded())
            }
        }
        guard agrees(with: reference) else { return nil }
    }

    deinit { linear.deallocate() }

    /// Converts the `width` RGBA pixels of `row` in place; alpha is left as it is.
    func apply(to row: UnsafeMutablePointer<UInt8>, width: Int) {
        let (m0, m1, m2, m3, m4, m5) = (matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5])
        let (m6, m7, m8, o0, o1, o2) = (matrix[6], matrix[7], matrix[8], matrix[9], matrix[10], matrix[11])
        let linear = linear, one = Self.one, bits = Self.fractionBits
        Self.encoding.withUnsafeBufferPointer { table in
            let encoding = table.baseAddress!
            func encoded(_ value: Int) -> UInt8 { encoding[min(max(value &>> bits, 0), one)] }
            for x in 0..<width {
                let pixel = row + x &* 4
                let r = linear[Int(pixel[0])], g = linear[256 &+ Int(pixel[1])], b = linear[512 &+ Int(pixel[2])]
                pixel[0] = encoded(m0 &* r &+ m1 &* g &+ m2 &* b &+ o0)
                pixel[1] = encoded(m3 &* r &+ m4 &* g &+ m5 &* b &+ o1)
                pixel[2] = encoded(m6 &* r &+ m7 &* g &+ m8 &* b &+ o2)
            }
        }
    }

    /// The matrix and offset from the source's linear light to linear sRGB, measured on Little
    /// CMS's float transform to a linear sRGB profile: the offset is black's image, each column a
    /// primary's image less it.
    private static func measureMatrix(source: LCMSProfile, intent: UInt32, flags: UInt32) -> [Float]? {
        guard let curve = cmsBuildGamma(nil, 1) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1), Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let linearSRGB = LCMSProfile(owning: cmsCreateRGBProfileTHR(nil, &white, &primaries, &curves)) else { return nil }
        let created = withExtendedLifetime((source, linearSRGB)) {
            cmsCreateTransformTHR(nil, source.handle, IMGLCMS_TYPE_RGB_FLT, linearSRGB.handle, IMGLCMS_TYPE_RGB_FLT, intent, flags)
        }
        guard let transform = created else { return nil }
        defer { cmsDeleteTransform(transform) }
        var probes: [Float] = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]
        var images = [Float](repeating: 0, count: 12)
        cmsDoTransform(transform, &probes, &images, 4)
        let offset = Array(images[0..<3])
        var matrix = [Float](repeating: 0, count: 12)
        for row in 0..<3 {
            for column in 0..<3 { matrix[row * 3 + column] = images[(column + 1) * 3 + row] - offset[row] }
            matrix[9 + row] = offset[row]
        }
        return matrix
    }

    /// True when this conversion and `reference` differ by at most 1 on every channel of a
    /// 17x17x17 grid of colours (steps of 16, ending at 255).
    private func agrees(with reference: cmsHTRANSFORM) -> Bool {
        let levels = (0...16).map { UInt8(min(255, $0 * 16)) }
        var grid: [UInt8] = []
        for r in levels { for g in levels { for b in levels { grid += [r, g, b, 255] } } }
        var ours = grid, theirs = grid
        let count = grid.count / 4
        ours.withUnsafeMutableBufferPointer { apply(to: $0.baseAddress!, width: count) }
        theirs.withUnsafeMutableBufferPointer { cmsDoTransform(reference, $0.baseAddress, $0.baseAddress, UInt32(count)) }
        return zip(ours, theirs).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}
