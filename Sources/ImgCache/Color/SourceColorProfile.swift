/// The colour profile an image's source had, as a decode or an inspection found it.
public enum SourceColorProfile: Sendable, Hashable {
    /// No colour information: the pixels are taken as sRGB.
    case none
    /// A profile the decode uses: an embedded ICC profile, or one built from PNG's sRGB, gAMA and
    /// cHRM chunks.
    case profile(ColorProfile)
    /// A profile that cannot be used, and why: it is ignored and the pixels are taken as sRGB,
    /// never an error.
    case malformed(reason: String)

    /// The profile of `iccBytes` for an image whose pixels are stored in `imageColorSpace`:
    /// `.malformed` when Little CMS cannot use it or it describes another colour space (a CMYK
    /// profile on an RGB image, say).
    public init(iccBytes: [UInt8], imageColorSpace: ColorProfile.ColorSpace) {
        do throws(ColorProfile.Malformed) {
            let profile = try ColorProfile(iccBytes: iccBytes)
            guard profile.colorSpace == imageColorSpace else {
                self = .malformed(reason: "a \(profile.colorSpace.rawValue.uppercased()) profile on a \(imageColorSpace.rawValue.uppercased()) image")
                return
            }
            self = .profile(profile)
        } catch {
            self = .malformed(reason: error.reason)
        }
    }

    /// The profile in use, nil for none or a malformed one.
    public var profile: ColorProfile? {
        if case .profile(let profile) = self { return profile }
        return nil
    }

    /// One line for people: the profile's description, "none", or "malformed, ignored (reason)".
    public var summary: String {
        switch self {
        case .none: return "none"
        case .profile(let profile): return profile.description
        case .malformed(let reason): return "malformed, ignored (\(reason))"
        }
    }

    /// The bytes to embed in the output under `policy`: the profile's under `.keep` when it is RGB
    /// (the only colour space the RGB output can carry), nil otherwise.
    public func embeddedBytes(under policy: ColorPolicy) -> [UInt8]? {
        guard policy == .keep, let profile, profile.colorSpace == .rgb else { return nil }
        return profile.iccBytes
    }
}
