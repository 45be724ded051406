import ImgCache

/// The encoder controls `fetch`, `prefetch`, `decode` and `slice` share: progressive JPEG, chroma
/// subsampling and a PNG palette (`EncoderControls`).
struct EncoderArguments {
    static let options: [OptionHelp] = [
        OptionHelp("--progressive", "write a JPEG progressive (SOF2), a coarse whole image first"),
        OptionHelp("--chroma", "420|444", .words(ChromaSubsampling.allCases.map(\.rawValue)), """
            JPEG and AVIF chroma: 420 (JPEG's default), or 444 for text and line
            art (AVIF's default is 420 below quality 90, 444 from 90)
            """),
        OptionHelp("--palette", "[COLORS]", .optionalNumber, """
            write a PNG with a palette of at most COLORS (2-256, default 256)
            colours and alpha (PLTE + tRNS, 1-8 bits a pixel): median cut, no
            dithering; lossless when the image has no more colours
            """),
    ]

    /// `--palette` alone: 256 colours.
    static let defaultPaletteColors = 256

    /// Reads the options; a usage error (exit 2) for a chroma other than 420 or 444 or a palette
    /// outside 2...256 colours.
    static func parse(_ arguments: inout ArgumentList) throws -> EncoderControls {
        var controls = EncoderControls()
        controls.progressiveJPEG = arguments.flag("--progressive")
        controls.chroma = try arguments.value("--chroma", expected: "420 or 444") { ChromaSubsampling(rawValue: $0) }
        if let colors = arguments.optionalNumber("--palette") {
            guard let count = colors.isEmpty ? defaultPaletteColors : Int(colors),
                  PNGEncoder.paletteColorRange.contains(count)
            else {
                throw UsageError("--palette expects a number of colours from 2 to 256, got '\(colors)'")
            }
            controls.paletteColors = count
        }
        return controls
    }
}
