/// How libwebp is asked to decode a still for some targets: the region it crops first, the size it
/// scales that region to, and each target's geometry in the pixels of that region.
///
/// The crop holds every target's region in whole pixels, with `margin` more on each side (within
/// the source) and its left and top even, as libwebp wants them: libwebp mirrors the chroma at the
/// edges of a crop, and the margin keeps that away from the pixels kept. A lossless crop equals
/// the full decode; a lossy one is libwebp's (as `dwebp -crop`), within a few levels of it.
///
/// The scale mirrors JPEG's DCT scaling: the decoded region keeps at least `oversampling` (2)
/// decoded pixels per output pixel on each axis for the target that needs the most, and the area
/// filter does the rest. A target that reduces by `oversampling` or less (or none) decodes at
/// full size, with no scaling.
struct WebPStillPlan: Equatable {
    /// The region of the source libwebp decodes, in source pixels.
    var crop: PixelRect
    /// The size libwebp scales `crop` to.
    var decodedSize: PixelSize
    /// Each target's geometry, with the crop as its source.
    var geometries: [ResizeGeometry]

    /// Source pixels decoded around the targets' regions.
    static let margin = 2

    init(source: PixelSize, geometries: [ResizeGeometry], oversampling: Double = 2) {
        let margin = Self.margin
        let left = max(0, geometries.map { Int($0.sourceX.rounded(.down)) }.min()! - margin) & ~1
        let top = max(0, geometries.map { Int($0.sourceY.rounded(.down)) }.min()! - margin) & ~1
        let right = min(source.width, geometries.map { Int(($0.sourceX + $0.sourceWidth).rounded(.up)) }.max()! + margin)
        let bottom = min(source.height, geometries.map { Int(($0.sourceY + $0.sourceHeight).rounded(.up)) }.max()! + margin)
        let crop = PixelRect(x: left, y: top, width: right - left, height: bottom - top)
        let fraction = geometries.map { min(1, oversampling / $0.reductionFactor) }.max()!
        self.crop = crop
        decodedSize = fraction < 1
            ? PixelSize(width: Self.scaled(crop.width, by: fraction), height: Self.scaled(crop.height, by: fraction))
            : crop.size
        self.geometries = geometries.map { geometry in
            var placed = geometry
            placed.sourceSize = crop.size
            placed.sourceX -= Double(left)
            placed.sourceY -= Double(top)
            return placed
        }
    }

    /// True when libwebp decodes less than the whole source.
    func crops(_ source: PixelSize) -> Bool { crop.size != source }

    /// True when libwebp scales the cropped region.
    var scales: Bool { decodedSize != crop.size }

    /// Bytes of the decoded RGBA region.
    var decodedBytes: Int { decodedSize.area * 4 }

    /// `length x fraction` rounded up, within 1...length.
    private static func scaled(_ length: Int, by fraction: Double) -> Int {
        min(length, max(1, Int((Double(length) * fraction).rounded(.up))))
    }
}
