/// The few colours most of an image is made of, each with the share of the image it covers.
///
/// The sample's pixels (weighted by alpha: transparent ones count for nothing) are counted in a
/// histogram of 16 levels a channel; up to `maxCount` seeds are picked from it, the fullest bin
/// first, then each time the bin that is full and far from every seed (k-means++ made
/// deterministic), and refined by weighted k-means. Clusters that end empty are dropped, so an
/// image of two colours has two. Sorted by share, largest first.
public struct DominantColors: Sendable, Equatable {
    /// A colour and the share of the image (0...1, by alpha-weighted pixels) nearest to it.
    public struct Entry: Sendable, Equatable, Codable {
        /// The cluster's colour (opaque).
        public let color: RGBAColor
        /// The share of the image nearest to `color`, 0...1.
        public let share: Double

        /// An entry of `color` covering `share` of the image.
        public init(color: RGBAColor, share: Double) {
            self.color = color
            self.share = share
        }

        enum CodingKeys: String, CodingKey {
            case red = "R", green = "G", blue = "B", share
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            color = RGBAColor(
                red: try container.decode(UInt8.self, forKey: .red), green: try container.decode(UInt8.self, forKey: .green),
                blue: try container.decode(UInt8.self, forKey: .blue))
            share = try container.decode(Double.self, forKey: .share)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(color.red, forKey: .red)
            try container.encode(color.green, forKey: .green)
            try container.encode(color.blue, forKey: .blue)
            try container.encode(share, forKey: .share)
        }
    }

    /// The most colours reported. 5.
    public static let maxCount = 5
    /// Refinement passes of k-means over the histogram.
    private static let passes = 10

    /// Largest share first; empty for a fully transparent image.
    public let entries: [Entry]

    /// The dominant colours of `bitmap`'s pixels (all of them: the facts hand a sample of at most
    /// 100 x 100).
    init(_ bitmap: Bitmap) {
        let bins = Self.histogram(bitmap)
        let total = bins.reduce(0) { $0 + $1.weight }
        guard total > 0 else {
            entries = []
            return
        }
        var centres = Self.seeds(bins)
        var members = [(sum: SIMD3<Double>, weight: Double)](repeating: (.zero, 0), count: centres.count)
        for _ in 0..<Self.passes {
            members = [(sum: SIMD3<Double>, weight: Double)](repeating: (.zero, 0), count: centres.count)
            for bin in bins {
                let nearest = Self.nearest(bin.mean, centres)
                members[nearest].sum += bin.mean * bin.weight
                members[nearest].weight += bin.weight
            }
            centres = zip(centres, members).map { centre, member in member.weight > 0 ? member.sum / member.weight : centre }
        }
        entries = zip(centres, members).filter { $0.1.weight > 0 }
            .map { centre, member in
                let rgb = (centre * 255).rounded(.toNearestOrAwayFromZero)
                return Entry(
                    color: RGBAColor(red: UInt8(rgb.x), green: UInt8(rgb.y), blue: UInt8(rgb.z)),
                    share: (member.weight / total * 10_000).rounded() / 10_000)
            }
            .sorted { $0.share > $1.share }
    }

    /// Non-empty bins of 16 levels a channel: the weighted mean colour (0...1) of their pixels and
    /// their weight (alpha 0...1 summed).
    private static func histogram(_ bitmap: Bitmap) -> [(mean: SIMD3<Double>, weight: Double)] {
        var sums = [SIMD3<Double>](repeating: .zero, count: 4096)
        var weights = [Double](repeating: 0, count: 4096)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            var offset = 0
            while offset < pixels.count {
                let (red, green, blue, alpha) = (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
                let bin = Int(red >> 4) << 8 | Int(green >> 4) << 4 | Int(blue >> 4)
                let weight = Double(alpha) / 255
                sums[bin] += SIMD3(Double(red), Double(green), Double(blue)) / 255 * weight
                weights[bin] += weight
                offset += 4
            }
        }
        return zip(sums, weights).filter { $0.1 > 0 }.map { ($0.0 / $0.1, $0.1) }
    }

    /// Up to `maxCount` starting centres: the fullest bin, then each time the bin whose weight
    /// times its squared distance to the nearest centre is largest, while that is above zero.
    private static func seeds(_ bins: [(mean: SIMD3<Double>, weight: Double)]) -> [SIMD3<Double>] {
        guard let fullest = bins.max(by: { $0.weight < $1.weight }) else { return [] }
        var seeds = [fullest.mean]
        var distances = bins.map { Self.distance($0.mean, fullest.mean) }
        while seeds.count < maxCount {
            var best = (index: -1, score: 0.0)
            for (index, bin) in bins.enumerated() where bin.weight * distances[index] > best.score {
                best = (index, bin.weight * distances[index])
            }
            guard best.index >= 0 else { break }
            let seed = bins[best.index].mean
            seeds.append(seed)
            for index in bins.indices { distances[index] = min(distances[index], Self.distance(bins[index].mean, seed)) }
        }
        return seeds
    }

    private static func nearest(_ colour: SIMD3<Double>, _ centres: [SIMD3<Double>]) -> Int {
        var best = (index: 0, distance: Double.infinity)
        for (index, centre) in centres.enumerated() {
            let distance = Self.distance(colour, centre)
            if distance < best.distance { best = (index, distance) }
        }
        return best.index
    }

    private static func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let difference = a - b
        return (difference * difference).sum()
    }
}
