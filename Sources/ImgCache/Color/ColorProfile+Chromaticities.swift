import CLCMS

extension ColorProfile {
    /// A white point and three primaries as CIE xy, as PNG's cHRM chunk stores them.
    public struct Chromaticities: Sendable {
        /// The white point's CIE xy coordinates.
        public var white: (x: Double, y: Double)
        /// The red primary's CIE xy coordinates.
        public var red: (x: Double, y: Double)
        /// The green primary's CIE xy coordinates.
        public var green: (x: Double, y: Double)
        /// The blue primary's CIE xy coordinates.
        public var blue: (x: Double, y: Double)

        /// Chromaticities from a white point and three primaries, each as CIE xy.
        public init(white: (x: Double, y: Double), red: (x: Double, y: Double), green: (x: Double, y: Double), blue: (x: Double, y: Double)) {
            self.white = white
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// sRGB's (ITU-R BT.709 primaries, D65 white).
        public static let sRGB = Chromaticities(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06))

        /// True when every coordinate is within 0.001 of `other`'s (cHRM stores them to 0.00001).
        func isClose(to other: Chromaticities) -> Bool {
            let mine = [white, red, green, blue], theirs = [other.white, other.red, other.green, other.blue]
            return zip(mine, theirs).allSatisfy { abs($0.x - $1.x) <= 0.001 && abs($0.y - $1.y) <= 0.001 }
        }
    }

    /// Little CMS's built-in sRGB profile, described "sRGB".
    public static let sRGB: ColorProfile = {
        let profile = LCMSProfile.sRGB()
        return try! ColorProfile(profile, bytes: profile.serialized()!, description: "sRGB")
    }()

    /// An RGB display profile with `chromaticities` and a tone curve that decodes with exponent
    /// `1 / encodingGamma` (PNG's gAMA: 0.45455 for a 2.2 display), described as `description`.
    /// `Malformed` when the chromaticities make no profile (a degenerate triangle, say).
    public init(chromaticities: Chromaticities, encodingGamma: Double, description: String) throws(Malformed) {
        guard encodingGamma > 0, encodingGamma.isFinite else { throw Malformed(reason: "gamma \(encodingGamma) is not positive") }
        var white = cmsCIExyY(x: chromaticities.white.x, y: chromaticities.white.y, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: chromaticities.red.x, y: chromaticities.red.y, Y: 1),
            Green: cmsCIExyY(x: chromaticities.green.x, y: chromaticities.green.y, Y: 1),
            Blue: cmsCIExyY(x: chromaticities.blue.x, y: chromaticities.blue.y, Y: 1))
        guard let curve = cmsBuildGamma(nil, 1 / encodingGamma) else { throw Malformed(reason: "gamma \(encodingGamma) makes no tone curve") }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = LCMSProfile(owning: cmsCreateRGBProfileTHR(nil, &white, &primaries, &curves)) else {
            throw Malformed(reason: "the chromaticities make no RGB profile")
        }
        guard let mlu = cmsMLUalloc(nil, 1) else { throw Malformed(reason: "out of memory") }
        defer { cmsMLUfree(mlu) }
        cmsMLUsetASCII(mlu, "en", "US", description)
        cmsWriteTag(profile.handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
        guard let bytes = profile.serialized() else { throw Malformed(reason: "Little CMS cannot save the profile") }
        try self.init(profile, bytes: bytes, description: description)
    }
}
