/// Whether white or black text reads better over an image, for the whole image and for its top
/// and bottom thirds (where a widget puts its title and its caption), with the WCAG 2 contrast
/// ratio of each (1...21; 4.5 is WCAG AA for body text, 3 for large text).
///
/// Text must read over the worst part of the picture it crosses, so each text colour is measured
/// against the part of the region that is worst for it: white against the luminance only a tenth
/// of the region is brighter than, black against the luminance only a tenth is darker than
/// (relative luminance of the pixels at least half opaque; a region with none counts as black).
/// A uniform region's contrast is that of its colour.
public struct Legibility: Sendable, Equatable, Codable {
    /// The text colour that reads better over a region.
    public enum TextColor: String, Sendable, Codable {
        /// White text.
        case white
        /// Black text.
        case black
    }

    /// One region's verdict.
    public struct Region: Sendable, Equatable, Codable {
        /// The colour with the higher contrast (white on a tie).
        public let text: TextColor
        /// WCAG contrast of white text, rounded to 2 decimals.
        public let whiteContrast: Double
        /// WCAG contrast of black text, rounded to 2 decimals.
        public let blackContrast: Double

        enum CodingKeys: String, CodingKey {
            case text, whiteContrast = "white_contrast", blackContrast = "black_contrast"
        }

        /// The verdict for a region whose luminance is `brightest` where white text is worst off
        /// and `darkest` where black text is.
        init(brightest: Double, darkest: Double) {
            whiteContrast = Self.rounded(1.05 / (brightest + 0.05))
            blackContrast = Self.rounded((darkest + 0.05) / 0.05)
            text = whiteContrast >= blackContrast ? .white : .black
        }

        private static func rounded(_ ratio: Double) -> Double { (ratio * 100).rounded() / 100 }
    }

    /// The share of a region allowed to be worse than the luminance its text is measured against.
    static let tolerance = 0.1

    /// The whole image.
    public let whole: Region
    /// The top third of the rows (at least one).
    public let top: Region
    /// The bottom third of the rows (at least one).
    public let bottom: Region

    /// The legibility of text over `bitmap` (every pixel read: the facts hand a sample of at most
    /// 100 x 100).
    init(_ bitmap: Bitmap) {
        let third = max(1, bitmap.height / 3)
        whole = Self.region(bitmap, rows: 0..<bitmap.height)
        top = Self.region(bitmap, rows: 0..<third)
        bottom = Self.region(bitmap, rows: (bitmap.height - third)..<bitmap.height)
    }

    private static func region(_ bitmap: Bitmap, rows: Range<Int>) -> Region {
        var luminances: [Double] = []
        luminances.reserveCapacity(rows.count * bitmap.width)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for offset in stride(from: rows.lowerBound * bitmap.width * 4, to: rows.upperBound * bitmap.width * 4, by: 4)
            where pixels[offset + 3] >= 128 {
                luminances.append(SRGB.luminance(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2]))
            }
        }
        guard !luminances.isEmpty else { return Region(brightest: 0, darkest: 0) }
        return Region(brightest: quantile(luminances, 1 - tolerance), darkest: quantile(luminances, tolerance))
    }

    /// Bins of the luminance histogram that finds a quantile without sorting every value.
    private static let binCount = 1024

    /// The luminance at or below which `fraction` of `luminances` lie: the value of rank
    /// ceil(fraction x count), found in its histogram bin (only that bin is sorted).
    private static func quantile(_ luminances: [Double], _ fraction: Double) -> Double {
        let rank = max(0, min(luminances.count - 1, Int((Double(luminances.count) * fraction).rounded(.up)) - 1))
        func bin(_ luminance: Double) -> Int { max(0, min(binCount - 1, Int(luminance * Double(binCount)))) }
        var counts = [Int](repeating: 0, count: binCount)
        for luminance in luminances { counts[bin(luminance)] += 1 }
        var below = 0
        for (index, count) in counts.enumerated() {
            if below + count > rank {
                return luminances.filter { bin($0) == index }.sorted()[rank - below]
            }
            below += count
        }
        return luminances.max() ?? 0
    }
}
