/// How coded YCbCr becomes R'G'B': an ITU-T H.273 MatrixCoefficients code point (BT.601 for
/// codes this does not know) and whether samples use the full range or video's limited range.
struct YCbCrMatrix: Equatable {
    let matrixCoefficients: Int
    let fullRange: Bool

    /// Kr and Kb of the matrix: BT.709 (1), FCC (4), BT.601 (5, 6), SMPTE 240M (7), BT.2020 (9, 10).
    private var weights: (kr: Float, kb: Float) {
        switch matrixCoefficients {
        case 1: return (0.2126, 0.0722)
        case 4: return (0.30, 0.11)
        case 7: return (0.212, 0.087)
        case 9, 10: return (0.2627, 0.0593)
        default: return (0.299, 0.114)
        }
    }

    /// R', G' and B' in 0...1 (before clamping) of samples `y`, `cb`, `cr` scaled to 0...1 from `bits`.
    func rgb(y: Float, cb: Float, cr: Float, bits: Int) -> (r: Float, g: Float, b: Float) {
        if matrixCoefficients == 0 { return (cr, y, cb) }  // GBR: Y holds G, Cb B, Cr R
        let (luma, blue, red) = expanded(y: y, cb: cb, cr: cr, bits: bits)
        let (kr, kb) = weights
        let kg = 1 - kr - kb
        return (
            luma + 2 * (1 - kr) * red,
            luma - 2 * kb * (1 - kb) / kg * blue - 2 * kr * (1 - kr) / kg * red,
            luma + 2 * (1 - kb) * blue)
    }

    /// The gray level of a monochrome sample.
    func gray(y: Float, bits: Int) -> Float {
        expanded(y: y, cb: 0.5, cr: 0.5, bits: bits).luma
    }

    /// Luma in 0...1 and chroma centred on 0, limited range stretched to full.
    private func expanded(y: Float, cb: Float, cr: Float, bits: Int) -> (luma: Float, blue: Float, red: Float) {
        let maximum = Float((1 << bits) - 1)
        let half = Float(1 << (bits - 1)) / maximum
        guard !fullRange else { return (y, cb - half, cr - half) }
        let scale = Float(1 << (bits - 8)) / maximum
        return ((y - 16 * scale) / (219 * scale), (cb - half) / (224 * scale), (cr - half) / (224 * scale))
    }
}
