/// Encoder settings beyond the format and the quality: progressive JPEG, chroma subsampling, and
/// PNG with a palette. Each applies only where its format is written (`.automatic` may write any
/// of JPEG and PNG), and enters the variant's key only there.
public struct EncoderControls: Sendable, Hashable {
    /// A JPEG is progressive (SOF2: a coarse whole image first, refined scan by scan) rather than
    /// baseline (SOF0). Default false.
    public var progressiveJPEG: Bool
    /// The chroma subsampling of a JPEG or AVIF; nil for the format's own: JPEG 4:2:0, AVIF 4:2:0
    /// below quality 90 and 4:4:4 from 90. WebP's lossy mode is always 4:2:0. Default nil.
    public var chroma: ChromaSubsampling?
    /// A PNG has a palette of at most this many colours, 2 to 256, with alpha (PLTE and tRNS; see
    /// `PaletteQuantizer`); nil for truecolour RGB or RGBA. Default nil.
    public var paletteColors: Int?

    /// The controls; by default none changes what the encoders write.
    public init(progressiveJPEG: Bool = false, chroma: ChromaSubsampling? = nil, paletteColors: Int? = nil) {
        self.progressiveJPEG = progressiveJPEG
        self.chroma = chroma
        self.paletteColors = paletteColors
    }

    /// - Throws: `invalidArgument` for a palette outside 2...256 colours.
    func validate() throws {
        if let paletteColors, !PNGEncoder.paletteColorRange.contains(paletteColors) {
            throw ImgCacheError.invalidArgument(
                "a PNG palette of \(paletteColors) colours is not in \(PNGEncoder.paletteColorRange)")
        }
    }

    /// The controls `format` can write: JPEG's for `.jpeg`, chroma for `.avif`, the palette for
    /// `.png`, all for `.automatic`, none for GIF and WebP.
    func applying(to format: ImageRequest.OutputFormat) -> EncoderControls {
        let writesJPEG: Bool, writesAVIF: Bool, writesPNG: Bool
        switch format {
        case .automatic: (writesJPEG, writesAVIF, writesPNG) = (true, false, true)
        case .jpeg: (writesJPEG, writesAVIF, writesPNG) = (true, false, false)
        case .avif: (writesJPEG, writesAVIF, writesPNG) = (false, true, false)
        case .png: (writesJPEG, writesAVIF, writesPNG) = (false, false, true)
        case .gif, .webp, .webpLossless: (writesJPEG, writesAVIF, writesPNG) = (false, false, false)
        }
        return EncoderControls(
            progressiveJPEG: writesJPEG && progressiveJPEG, chroma: writesJPEG || writesAVIF ? chroma : nil,
            paletteColors: writesPNG ? paletteColors : nil)
    }

    /// `;encode=` and the controls set, comma-separated (`progressive`, `chroma444` or
    /// `chroma420`, `palette64`); empty when none is.
    var variantKeyComponent: String {
        var parts: [String] = []
        if progressiveJPEG { parts.append("progressive") }
        if let chroma { parts.append("chroma\(chroma.rawValue)") }
        if let paletteColors { parts.append("palette\(paletteColors)") }
        return parts.isEmpty ? "" : ";encode=" + parts.joined(separator: ",")
    }
}
