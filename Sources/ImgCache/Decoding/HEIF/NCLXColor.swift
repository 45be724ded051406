/// The colour an ISOBMFF `colr` box of type `nclx` (or an AV1 sequence header) signals, as code
/// points of ITU-T H.273, turned into a profile the colour stage converts to sRGB.
///
/// BT.709 primaries (sRGB's) and unspecified ones need no conversion. Display P3, BT.2020,
/// BT.601 and BT.470 primaries with an SDR tone curve become an RGB profile with those primaries
/// and a 2.2 gamma (the sRGB and BT.709 curves approximated). PQ and HLG (HDR) curves are left
/// as coded: no conversion to SDR is attempted.
struct NCLXColor: Equatable {
    let colorPrimaries: Int
    let transferCharacteristics: Int

    /// The profile for these code points, `.none` where the pixels are taken as sRGB.
    var sourceProfile: SourceColorProfile {
        guard let chromaticities = Self.chromaticities[colorPrimaries], let gamma = Self.encodingGammas[transferCharacteristics] else {
            return .none
        }
        do throws(ColorProfile.Malformed) {
            let description = "nclx primaries \(colorPrimaries), transfer \(transferCharacteristics)"
            return .profile(try ColorProfile(chromaticities: chromaticities, encodingGamma: gamma, description: description))
        } catch {
            return .malformed(reason: error.reason)
        }
    }

    /// H.273 ColourPrimaries other than BT.709 and unspecified.
    private static let chromaticities: [Int: ColorProfile.Chromaticities] = [
        5: .init(white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06)),
        6: .init(white: (0.3127, 0.3290), red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070)),
        9: .init(white: (0.3127, 0.3290), red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046)),
        12: .init(white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060)),
    ]

    /// H.273 TransferCharacteristics with an SDR curve, as PNG-style encoding gammas: BT.709, BT.601,
    /// BT.2020 and sRGB approximated by 2.2; 4 is 2.2 and 5 is 2.8 exactly; 2 (unspecified) taken as sRGB.
    private static let encodingGammas: [Int: Double] = [
        1: 1 / 2.2, 2: 1 / 2.2, 4: 1 / 2.2, 5: 1 / 2.8, 6: 1 / 2.2, 13: 1 / 2.2, 14: 1 / 2.2, 15: 1 / 2.2,
    ]
}
