import ImgCache

/// The encoder controls (`EncoderControls`): imgproxy's `jpgo` and `pngo` for progressive JPEG,
/// chroma and a PNG palette, and imgcache's own `ch` for chroma (imgproxy has no option of its own
/// for it: its `jpgo` carries `no_subsample`). The server's defaults (`ServeURLConfiguration`)
/// apply until a URL says otherwise.
extension ServeOptions {
    /// `jpgo:PROGRESSIVE:NO_SUBSAMPLE:TRELLIS_QUANT:OVERSHOOT_DERINGING:OPTIMIZE_SCANS:QUANT_TABLE`
    /// (imgproxy's `jpeg_options`): a progressive JPEG, and with `NO_SUBSAMPLE` true chroma at
    /// 4:4:4 (false: 4:2:0), as `ch`. An empty or missing argument keeps what was set before. The
    /// last four need mozjpeg: only false (or 0 for the quant table) is taken.
    mutating func applyJPEGOptions(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...6, "jpgo:PROGRESSIVE:NO_SUBSAMPLE")
        if !option.isOmitted(0) { encoderControls.progressiveJPEG = try option.bool(0, "progressive") }
        if !option.isOmitted(1) { encoderControls.chroma = try option.bool(1, "no_subsample") ? .yuv444 : .yuv420 }
        let mozjpegOnly = ["trellis_quant", "overshoot_deringing", "optimize_scans"]
        for (offset, name) in mozjpegOnly.enumerated() where !option.isOmitted(offset + 2) {
            guard try option.bool(offset + 2, name) else { continue }
            throw .unsupportedOption(name: option.name, detail: "\(name) needs mozjpeg; imgcache writes with libjpeg-turbo")
        }
        if !option.isOmitted(5), try option.wholeNumber(5, "quant_table", in: 0...8) != 0 {
            throw .unsupportedOption(name: option.name, detail: "quant_table needs mozjpeg; imgcache writes with libjpeg-turbo")
        }
    }

    /// `pngo:INTERLACED:QUANTIZE:QUANTIZATION_COLORS` (imgproxy's `png_options`): with `QUANTIZE`
    /// true a PNG gets a palette of at most `QUANTIZATION_COLORS` (2 to 256; the server's default,
    /// 256 unless set) colours and alpha. An empty or missing argument keeps what was set before.
    /// `INTERLACED` may only be false: imgcache writes no Adam7 PNG.
    mutating func applyPNGOptions(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...3, "pngo:INTERLACED:QUANTIZE:QUANTIZATION_COLORS")
        if !option.isOmitted(0), try option.bool(0, "interlaced") {
            throw .unsupportedOption(name: option.name, detail: "imgcache writes no interlaced PNG: give pngo:0 or leave it empty")
        }
        var quantize = encoderControls.paletteColors != nil
        if !option.isOmitted(1) { quantize = try option.bool(1, "quantize") }
        if !option.isOmitted(2) {
            quantizationColors = try option.wholeNumber(2, "quantization colors", in: PNGEncoder.paletteColorRange)
        }
        encoderControls.paletteColors = quantize ? quantizationColors : nil
    }

    /// `ch:444`, `ch:420` or `ch:auto` (`chroma`): the chroma subsampling of a JPEG or AVIF, `auto`
    /// for the format's own (JPEG 4:2:0; AVIF 4:2:0 below quality 90, 4:4:4 from 90).
    mutating func applyChroma(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "ch:420, ch:444 or ch:auto")
        let word = try option.word(0, "chroma")
        guard word == "auto" else {
            encoderControls.chroma = try option.choice(0, "chroma", of: ChromaSubsampling.self)
            return
        }
        encoderControls.chroma = nil
    }
}
