import CLCMS

/// Converts rows of 8-bit pixels to sRGB in place with Little CMS, from a source profile.
/// Made once per decode (building it costs far more than a row) and used on one thread.
///
/// The rendering intent is perceptual: ICC's default for photographs and what Pillow's ImageCms
/// uses by default. For matrix-shaper profiles such as Display P3 and Adobe RGB, which carry no
/// perceptual tables, it is the same as relative colorimetric: colours sRGB can show are kept and
/// the others are clipped channel by channel. Only table-based (LUT) profiles, such as most CMYK
/// ones, map their gamut perceptually.
public final class ColorTransform {
    /// Perceptual (see the type's comment).
    static let intent = UInt32(INTENT_PERCEPTUAL)

    private let handle: cmsHTRANSFORM
    /// Used instead of `handle` for RGB matrix-shaper profiles, when it agrees with it.
    private let matrixShaper: MatrixShaperConversion?
    private let outputNeedsOpaqueAlpha: Bool

    /// A transform from `profile` to sRGB for RGBA rows (4 bytes a pixel) whose layout follows the
    /// profile's colour space:
    /// - RGB: RGBA; the colour is converted, alpha left as it is.
    /// - grey: grey replicated in R, G and B; converted to RGB, alpha left as it is.
    /// - CMYK: inverted CMYK (255 = no ink, as Adobe applications store it and libjpeg returns
    ///   it), replaced by RGBA with opaque alpha.
    ///
    /// `Malformed` when Little CMS cannot build one (a tag it needs is missing or corrupt).
    public init(from profile: ColorProfile) throws(ColorProfile.Malformed) {
        guard let source = LCMSProfile(bytes: profile.iccBytes) else {
            throw ColorProfile.Malformed(reason: "Little CMS cannot read the profile")
        }
        let inputFormat: UInt32
        switch profile.colorSpace {
        case .rgb: inputFormat = IMGLCMS_TYPE_RGBA_8
        case .gray: inputFormat = IMGLCMS_TYPE_GRAY_IN_RGBA_8
        case .cmyk: inputFormat = IMGLCMS_TYPE_CMYK_8_REV
        }
        // No 1-pixel cache: photographs rarely repeat a pixel, and the check costs on every one.
        // Rows are converted in place, so the alpha byte (not written without cmsFLAGS_COPY_ALPHA)
        // keeps its value.
        let sRGB = LCMSProfile.sRGB()
        let flags = UInt32(cmsFLAGS_NOCACHE)
        let created = withExtendedLifetime((source, sRGB)) {
            cmsCreateTransformTHR(nil, source.handle, inputFormat, sRGB.handle, IMGLCMS_TYPE_RGBA_8, Self.intent, flags)
        }
        guard let handle = created else {
            throw ColorProfile.Malformed(reason: "Little CMS cannot build a transform from the profile")
        }
        self.handle = handle
        matrixShaper = profile.colorSpace == .rgb
            ? MatrixShaperConversion(source: source, intent: Self.intent, flags: flags, reference: handle) : nil
        outputNeedsOpaqueAlpha = profile.colorSpace == .cmyk
    }

    deinit { cmsDeleteTransform(handle) }

    /// Converts the `width` pixels of `row` (4 bytes each) in place.
    public func apply(to row: UnsafeMutablePointer<UInt8>, width: Int) {
        if let matrixShaper { return matrixShaper.apply(to: row, width: width) }
        cmsDoTransform(handle, row, row, UInt32(width))
        if outputNeedsOpaqueAlpha {
            for x in 0..<width { row[x * 4 + 3] = 255 }
        }
    }
}

extension SourceColorProfile {
    /// The transform to sRGB that `policy` asks for, or nil when the pixels
    /// stay as they are: no profile, an sRGB one, `.ignore`, or `.keep` for anything but CMYK (an
    /// RGB output cannot hold CMYK, so it is converted under `.keep` too). A profile Little CMS
    /// cannot build a transform from becomes `.malformed`.
    public mutating func transformToSRGB(policy: ColorPolicy) -> ColorTransform? {
        guard let profile, !profile.isSRGB else { return nil }
        switch policy {
        case .ignore: return nil
        case .keep where profile.colorSpace != .cmyk: return nil
        case .convert, .keep: break
        }
        do throws(ColorProfile.Malformed) {
            return try ColorTransform(from: profile)
        } catch {
            self = .malformed(reason: error.reason)
            return nil
        }
    }
}
