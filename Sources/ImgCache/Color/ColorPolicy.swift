/// What a decode does with the colour profile of its source (an ICC profile, or PNG's sRGB, gAMA
/// and cHRM chunks). Default `.convert`.
public enum ColorPolicy: String, Sendable, Hashable, CaseIterable {
    /// Pixels are converted to sRGB with the source's profile (perceptual intent), so that they
    /// look right wherever sRGB is assumed; the output carries no profile. The default.
    case convert
    /// Pixels are left as stored and the source's profile is embedded in the output (JPEG APP2,
    /// PNG iCCP; GIF cannot carry one). Only an RGB profile can describe the RGB output: a CMYK
    /// source is still converted to sRGB, and a greyscale profile is dropped.
    case keep
    /// Pixels are left as stored and no profile is carried, as before colour management (a CMYK
    /// JPEG is turned into RGB by the plain formula).
    case ignore
}

extension ColorPolicy {
    /// The part of a variant key this policy adds: empty for the default, so that keys made before
    /// policies existed stay valid; `;color=keep` or `;color=ignore` otherwise.
    var variantKeyComponent: String { self == .convert ? "" : ";color=\(rawValue)" }
}
