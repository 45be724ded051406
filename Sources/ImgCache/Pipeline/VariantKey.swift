/// The cache key of a prepared image: the source URL plus a canonical description of every option
/// that changes its bytes, e.g. `https://x/a.gif#imgcache-variant:v2;size=1032x486;mode=fit;`
/// `upscale=0;frames=8;budget=15728640;format=auto`. (v2: `auto` stores opaque stills as JPEG;
/// `auto-q20` when it does so at a quality other than 85; a byte cap is appended to the format,
/// `format=jpeg85-max20000`.) The URL part is the original's key
/// (see `RequestPlan.originalKey`).
/// A source region adds `;region=WxH+X+Y` at the end, and a colour policy other than the default
/// `;color=keep` or `;color=ignore` after it, and a crop's gravity other than the centre
/// `;gravity=north` (or `;gravity=focus:0.3,0.2`; for `.crop` and `.pad`) after that, then a
/// background `;background=RRGGBBAA`, and the request's processors
/// `;process=blur(sigma=4)|tint(dark)` last (then `;scale=3` when the target's scale is not 1);
/// encoder controls the format uses follow the format (`format=jpeg85;encode=progressive,chroma444`);
/// keys without them are unchanged, so variants stored before regions, colour policies,
/// gravities and processors existed stay valid.
enum VariantKey {
    /// - Parameters:
    ///   - quality: the JPEG quality `.automatic` uses; nil (the default) for 85.
    ///   - maxBytes: the request's byte cap; nil (the default) for none.
    ///   - controls: the request's encoder controls; those `format` uses enter the key. Default none.
    static func make(
        url: String, pixels: PixelSize?, options: DecodingOptions, format: ImageRequest.OutputFormat, quality: Int? = nil,
        maxBytes: Int? = nil, controls: EncoderControls = EncoderControls(), background: RGBAColor? = nil,
        processors: ProcessorChain = ProcessorChain(processors: []), scale: Double = 1
    ) -> String {
        let size = pixels.map(\.description) ?? "source"
        return "\(url)\(CacheKey.variantMarker)v2;size=\(size);mode=\(options.contentMode.rawValue);"
            + "upscale=\(options.allowsUpscaling ? 1 : 0);frames=\(options.maxFrames);"
            + "budget=\(options.frameBudgetBytes);format=\(format.keyComponent(quality: quality ?? JPEGEncoder.defaultQuality, maxBytes: maxBytes))"
            + controls.applying(to: format).variantKeyComponent + (options.sourceRegion.map { ";region=\($0)" } ?? "") + options.colorPolicy.variantKeyComponent
            + ([.crop, .pad].contains(options.contentMode) ? options.gravity.variantKeyComponent : "")
            + (background.map { ";background=\($0)" } ?? "") + processors.variantKeyComponent(scale: scale)
    }
}
