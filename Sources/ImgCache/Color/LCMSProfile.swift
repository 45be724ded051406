import CLCMS
import Foundation

/// An open Little CMS profile, closed when dropped.
final class LCMSProfile {
    let handle: cmsHPROFILE

    /// Opens `bytes` (Little CMS copies them); nil when they are not an ICC profile it can read.
    init?(bytes: [UInt8]) {
        guard let handle = bytes.withUnsafeBytes({ cmsOpenProfileFromMemTHR(nil, $0.baseAddress, UInt32($0.count)) }) else {
            return nil
        }
        self.handle = handle
    }

    /// Takes ownership of `handle`; nil when it is nil.
    init?(owning handle: cmsHPROFILE?) {
        guard let handle else { return nil }
        self.handle = handle
    }

    deinit { cmsCloseProfile(handle) }

    /// The built-in sRGB profile that every conversion ends in.
    static func sRGB() -> LCMSProfile { LCMSProfile(owning: cmsCreate_sRGBProfileTHR(nil))! }

    /// The profile's bytes as Little CMS writes them; nil when it cannot.
    func serialized() -> [UInt8]? {
        var count: UInt32 = 0
        guard cmsSaveProfileToMem(handle, nil, &count) != 0, count > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        let saved = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(handle, $0.baseAddress, &count) }
        return saved != 0 ? Array(bytes.prefix(Int(count))) : nil
    }

    /// The description tag in English (or the first language there is), trimmed; empty when there is none.
    var profileDescription: String {
        let size = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", nil, 0)
        guard size > 0 else { return "" }
        var text = [CChar](repeating: 0, count: Int(size))
        cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &text, size)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
    }

    /// True when the profile's colourants and tone curves are sRGB's (within half a step of 8-bit
    /// output), or for greyscale its tone curve is sRGB's: converting would change nothing.
    var isSRGBInEffect: Bool {
        switch cmsGetColorSpace(handle) {
        case cmsSigRgbData:
            guard cmsIsMatrixShaper(handle) != 0 else { return false }
            return zip(Self.colorantTags, Self.sRGBColorants).allSatisfy { tag, expected in
                guard let xyz = colorant(tag) else { return false }
                return abs(xyz.X - expected.X) <= 0.002 && abs(xyz.Y - expected.Y) <= 0.002 && abs(xyz.Z - expected.Z) <= 0.002
            } && [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag].allSatisfy(curveIsSRGB)
        case cmsSigGrayData:
            return curveIsSRGB(cmsSigGrayTRCTag)
        default:
            return false
        }
    }

    private static let colorantTags = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]

    /// sRGB's red, green and blue colourants adapted to D50, from Little CMS's own sRGB profile.
    private static let sRGBColorants: [cmsCIEXYZ] = {
        let sRGB = LCMSProfile.sRGB()
        return colorantTags.map { sRGB.colorant($0)! }
    }()

    private func colorant(_ tag: cmsTagSignature) -> cmsCIEXYZ? {
        cmsReadTag(handle, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee
    }

    /// True when the tone curve under `tag` is within 0.002 (half an 8-bit step) of sRGB's at 33 points.
    private func curveIsSRGB(_ tag: cmsTagSignature) -> Bool {
        guard let raw = cmsReadTag(handle, tag) else { return false }
        let curve = OpaquePointer(raw)
        return (0...32).allSatisfy { step in
            let value = Double(step) / 32
            let expected = value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
            return abs(Double(cmsEvalToneCurveFloat(curve, Float(value))) - expected) <= 0.002
        }
    }
}
