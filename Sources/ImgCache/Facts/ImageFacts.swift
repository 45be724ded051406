import Foundation

/// What an image's pixels say, for a client that must show something before the image (or
/// instead of it) and keep its text legible over it: the average colour, the dominant colours,
/// two placeholders (BlurHash and ThumbHash) and which text colour reads better where.
///
/// Computed from the image as prepared (its first frame, sRGB, straight alpha): an image larger
/// than 100 x 100 is first shrunk by area to fit 100 x 100 (aspect kept), and the placeholders,
/// the dominant colours and the legibility are computed from that sample; the average is the
/// whole image's. An image that fits is read as it is, so its placeholders are those the
/// reference encoders give for the same pixels. Costs one pass over the pixels and a few hundred
/// thousand multiplications on the sample (about a millisecond for a widget's 1014 x 474).
///
/// Encoded as JSON with imgproxy's names where it has them (`average` with `R`, `G`, `B`, `A`;
/// `dominant_colors`; `blurhash`) and `thumbhash` (base64) and `legibility` beside them.
public struct ImageFacts: Sendable, Equatable, Codable {
    /// The mean colour of the visible pixels (alpha-weighted red, green, blue) and the mean alpha.
    public let average: RGBAColor
    /// Up to 5 colours with their shares, largest first (see `DominantColors`).
    public let dominantColors: [DominantColors.Entry]
    /// The BlurHash string (default 4 x 3 components).
    public let blurHash: String
    /// The ThumbHash bytes.
    public let thumbHash: [UInt8]
    /// White or black text, for the whole image and its top and bottom thirds.
    public let legibility: Legibility

    /// The facts of `bitmap` with a BlurHash of `blurHashComponents` (default 4 across, 3 down).
    /// - Throws: `invalidArgument` for BlurHash components outside 1...9.
    public init(of bitmap: Bitmap, blurHashComponents: (x: Int, y: Int) = BlurHash.defaultComponents) throws {
        let sample = FactsSample(bitmap)
        let mean = sample.premultipliedMean
        let straight = mean.w > 0 ? mean * (255 / mean.w) : .zero
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        average = RGBAColor(red: byte(straight.x), green: byte(straight.y), blue: byte(straight.z), alpha: byte(mean.w))
        dominantColors = DominantColors(sample.bitmap).entries
        blurHash = try BlurHash.encode(sample.bitmap, componentsX: blurHashComponents.x, componentsY: blurHashComponents.y)
        thumbHash = try ThumbHash.encode(sample.bitmap)
        legibility = Legibility(sample.bitmap)
    }

    enum CodingKeys: String, CodingKey {
        case average, dominantColors = "dominant_colors", blurHash = "blurhash", thumbHash = "thumbhash", legibility
    }

    private enum ColorKeys: String, CodingKey {
        case red = "R", green = "G", blue = "B", alpha = "A"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let color = try container.nestedContainer(keyedBy: ColorKeys.self, forKey: .average)
        average = RGBAColor(
            red: try color.decode(UInt8.self, forKey: .red), green: try color.decode(UInt8.self, forKey: .green),
            blue: try color.decode(UInt8.self, forKey: .blue), alpha: try color.decode(UInt8.self, forKey: .alpha))
        dominantColors = try container.decode([DominantColors.Entry].self, forKey: .dominantColors)
        blurHash = try container.decode(String.self, forKey: .blurHash)
        guard let thumbHash = Data(base64Encoded: try container.decode(String.self, forKey: .thumbHash)) else {
            throw DecodingError.dataCorruptedError(forKey: .thumbHash, in: container, debugDescription: "not base64")
        }
        self.thumbHash = [UInt8](thumbHash)
        legibility = try container.decode(Legibility.self, forKey: .legibility)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var color = container.nestedContainer(keyedBy: ColorKeys.self, forKey: .average)
        try color.encode(average.red, forKey: .red)
        try color.encode(average.green, forKey: .green)
        try color.encode(average.blue, forKey: .blue)
        try color.encode(average.alpha, forKey: .alpha)
        try container.encode(dominantColors, forKey: .dominantColors)
        try container.encode(blurHash, forKey: .blurHash)
        try container.encode(Data(thumbHash).base64EncodedString(), forKey: .thumbHash)
        try container.encode(legibility, forKey: .legibility)
    }

    /// The facts as JSON object fields, to merge with others (an info command's, a server's).
    public func jsonFields() throws -> [String: Any] {
        let data = try JSONEncoder().encode(self)
        guard let fields = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ImgCacheError.encodingFailed(format: .png, detail: "image facts did not encode as a JSON object")
        }
        return fields
    }
}
