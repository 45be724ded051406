import Foundation

/// How interesting each cell of a 32 x 32 preview of an image is, scored as libvips' `attention`
/// smartcrop scores it (`vips_smartcrop_attention` in libvips/conversion/smartcrop.c, 8.10 and
/// later, which took it from smartcrop.js): the image is shrunk to 32 x 32 (each axis on its own,
/// so a cell is 1/32 of the width and 1/32 of the height), converted to CIE XYZ (Y 0...100), and
/// each cell scores the sum of
/// - its edges: five times the absolute Laplacian (4 x centre - the four neighbours) of Y;
/// - its skin tone: 100 - 100 x the distance of its unit XYZ vector from smartcrop.js's skin
///   colour (0.78, 0.57, 0.44), where Y > 5 (0 in dark cells);
/// - its saturation: CIELAB a* (red against green), where Y > 5.
/// The map of an animation is the sum over its frames. `peak(sigma:)` blurs the sum with a
/// Gaussian and takes its maximum, as vips does.
///
/// Memory: the 32 x 32 scores, one row of the image in floats (16 bytes a pixel) and the image's
/// rows shrunk to 32 columns (512 bytes a row) while a frame is added.
struct AttentionMap {
    /// Cells a side.
    static let side = 32

    /// The summed scores, row by row.
    private(set) var scores = [Float](repeating: 0, count: side * side)

    /// smartcrop.js's skin colour in XYZ, which unit XYZ vectors are measured from.
    private static let skin = SIMD3<Float>(0.78, 0.57, 0.44)
    /// D65 white in XYZ (Y 100), for CIELAB.
    private static let white = SIMD3<Float>(95.047, 100, 108.883)

    /// Adds the scores of `bitmap`.
    mutating func add(_ bitmap: Bitmap) {
        let xyz = Self.preview(bitmap).map(Self.xyz(ofPremultipliedRGB:))
        let side = Self.side
        for y in 0..<side {
            for x in 0..<side {
                let luminance = { (x: Int, y: Int) in xyz[min(max(y, 0), side - 1) * side + min(max(x, 0), side - 1)].y }
                let laplacian = 4 * luminance(x, y) - luminance(x - 1, y) - luminance(x + 1, y)
                    - luminance(x, y - 1) - luminance(x, y + 1)
                var score = abs(5 * laplacian)
                let cell = xyz[y * side + x]
                if cell.y > 5 {
                    let direction = cell / (cell * cell).sum().squareRoot()
                    let away = direction - Self.skin
                    score += 100 - 100 * (away * away).sum().squareRoot()
                    score += Self.labA(cell)
                }
                scores[y * side + x] += score
            }
        }
    }

    /// The cell of most interest once the scores are blurred with a Gaussian of `sigma` cells
    /// (taps down to 0.2 of the centre's, edges extended, as `vips_gaussblur`); among cells within
    /// a rounding error of the maximum, the one nearest the centre (vips takes whichever it meets
    /// first), so that a flat image keeps its centre.
    func peak(sigma: Double) -> (x: Int, y: Int) {
        let side = Self.side
        let radius = Int((sigma * (2 * log(5.0)).squareRoot()).rounded(.down))
        var kernel = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        func blurred(_ input: [Float], stepX: Int, stepY: Int) -> [Float] {
            var output = [Float](repeating: 0, count: input.count)
            for y in 0..<side {
                for x in 0..<side {
                    var sum: Float = 0
                    for (offset, weight) in zip(-radius...radius, kernel) {
                        let sx = min(max(x + offset * stepX, 0), side - 1), sy = min(max(y + offset * stepY, 0), side - 1)
                        sum += input[sy * side + sx] * weight
                    }
                    output[y * side + x] = sum
                }
            }
            return output
        }
        let map = blurred(blurred(scores, stepX: 1, stepY: 0), stepX: 0, stepY: 1)
        let highest = map.max() ?? 0
        let tolerance = 1e-5 * max(1, abs(highest))
        // Cell 16's top left corner, where a window is centred from, is the image's centre.
        let centre = Float(side / 2)
        let best = map.indices.filter { map[$0] >= highest - tolerance }.min { a, b in
            let da = pow(Float(a % side) - centre, 2) + pow(Float(a / side) - centre, 2)
            let db = pow(Float(b % side) - centre, 2) + pow(Float(b / side) - centre, 2)
            return da < db
        } ?? 0
        return (best % side, best / side)
    }

    /// `bitmap` shrunk to 32 x 32 by area, in premultiplied red, green and blue 0...255
    /// (transparent pixels count as black, as vips premultiplies before it searches).
    private static func preview(_ bitmap: Bitmap) -> [SIMD3<Float>] {
        AreaShrink.premultiplied(bitmap, to: PixelSize(width: side, height: side)).map { SIMD3($0.x, $0.y, $0.z) }
    }

    /// CIE XYZ (D65, Y 0...100) of an sRGB colour in 0...255.
    private static func xyz(ofPremultipliedRGB rgb: SIMD3<Float>) -> SIMD3<Float> {
        func linear(_ value: Float) -> Float {
            let v = value / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(rgb.x), linear(rgb.y), linear(rgb.z))
        return 100 * SIMD3(
            0.4124 * r + 0.3576 * g + 0.1805 * b,
            0.2126 * r + 0.7152 * g + 0.0722 * b,
            0.0193 * r + 0.1192 * g + 0.9505 * b)
    }

    /// CIELAB a* of an XYZ colour (D65 white).
    private static func labA(_ xyz: SIMD3<Float>) -> Float {
        func f(_ t: Float) -> Float { t > 216.0 / 24389 ? cbrt(t) : t * (24389.0 / 27) / 116 + 16.0 / 116 }
        let ratio = xyz / white
        return 500 * (f(ratio.x) - f(ratio.y))
    }
}
