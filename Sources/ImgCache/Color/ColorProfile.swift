import CLCMS

/// An ICC profile that Little CMS opened: its bytes, the colour space it describes and its
/// description. Any decoder can make one from the bytes its format carries (JPEG APP2, PNG iCCP,
/// WebP ICCP) with `SourceColorProfile(iccBytes:imageColorSpace:)`, which also checks that the
/// profile fits the image.
public struct ColorProfile: Sendable, Hashable {
    /// The colour spaces an image's pixels can be stored in, and a profile can describe.
    public enum ColorSpace: String, Sendable, Hashable {
        /// Red, green and blue.
        case rgb
        /// One grey channel.
        case gray
        /// Cyan, magenta, yellow and black (JPEG only).
        case cmyk
    }

    /// Why a profile cannot be used: it is then ignored and the pixels are taken as sRGB.
    public struct Malformed: Error, Sendable, Hashable {
        /// What is wrong with the profile, in words, for logs and error messages.
        public var reason: String
    }

    /// The profile as stored (or as built from PNG chunks), at most `maxByteCount` bytes.
    public let iccBytes: [UInt8]
    /// The colour space of the pixels the profile describes (its data colour space).
    public let colorSpace: ColorSpace
    /// The profile's description tag in English, e.g. "Display P3"; "unnamed profile" when it has none.
    public private(set) var description: String
    /// True when converting with it would change nothing: sRGB's colourants and tone curves (or for
    /// greyscale sRGB's tone curve), whatever its bytes. Untagged and sRGB files cost nothing.
    public let isSRGB: Bool

    /// Largest profile read: 8 MiB (real profiles are a few KB, printer profiles up to a few MB).
    public static let maxByteCount = 8 << 20

    /// Opens `iccBytes` with Little CMS; `Malformed` when they are too long, not a profile it can
    /// read, of a colour space other than RGB, grey or CMYK, or unusable as a source (a device link).
    public init(iccBytes: [UInt8]) throws(Malformed) {
        guard iccBytes.count <= Self.maxByteCount else {
            throw Malformed(reason: "profile of \(iccBytes.count) bytes is over \(Self.maxByteCount)")
        }
        guard let profile = LCMSProfile(bytes: iccBytes) else {
            throw Malformed(reason: "Little CMS cannot read the profile")
        }
        try self.init(profile, bytes: iccBytes)
    }

    /// Describes the open `profile`, whose bytes are `bytes`.
    init(_ profile: LCMSProfile, bytes: [UInt8], description: String? = nil) throws(Malformed) {
        switch cmsGetColorSpace(profile.handle) {
        case cmsSigRgbData: colorSpace = .rgb
        case cmsSigGrayData: colorSpace = .gray
        case cmsSigCmykData: colorSpace = .cmyk
        default: throw Malformed(reason: "the profile's colour space is not RGB, grey or CMYK")
        }
        guard cmsIsIntentSupported(profile.handle, ColorTransform.intent, UInt32(LCMS_USED_AS_INPUT)) != 0 else {
            throw Malformed(reason: "the profile cannot convert from its colour space (a device link, or tags missing)")
        }
        iccBytes = bytes
        let named = description ?? profile.profileDescription
        self.description = named.isEmpty ? "unnamed profile" : named
        isSRGB = profile.isSRGBInEffect
    }

    /// The same profile, described as `text` (for profiles built from other colour information).
    func described(as text: String) -> ColorProfile {
        var copy = self
        copy.description = text
        return copy
    }
}
