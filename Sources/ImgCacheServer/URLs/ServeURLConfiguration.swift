import ImgCache

/// How `ServeURLParser` reads paths: how they are signed, how long they may be, and the pipeline
/// settings a request built from them must meet.
public struct ServeURLConfiguration: Sendable {
    /// Whether URLs must be signed.
    public enum Signing: Sendable {
        /// Every URL carries the signature of its path with this key (see `URLSigningKey`);
        /// anything else in its place, `insecure` included, is refused with a 403.
        case required(URLSigningKey)
        /// The first segment is not checked: any non-empty one is taken (imgproxy's clients write
        /// `insecure`). For development and trusted networks only; there is no way to allow this
        /// while a key is set.
        case unsigned
    }

    /// Whether URLs must be signed, and with what. No default: a server says which.
    public var signing: Signing
    /// Longest path accepted, in bytes, query included; longer ones are refused (414) before
    /// anything else is read. Default 8192, nginx's default request line buffer.
    public var maxPathLength: Int
    /// The pipeline's decoding limits (`ImagePipeline.Configuration.limits`): a target over
    /// `maxOutputPixels` is refused with a 400, and a width or height given alone is bounded by
    /// it. Default `DecodingLimits()`.
    public var limits: DecodingLimits
    /// The pipeline's key policy (`ImagePipeline.Configuration.keyPolicy`): a cache buster is
    /// added to the key it makes of the source URL, so that such a key leaves out the same query
    /// items. Default `CacheKeyPolicy()`.
    public var keyPolicy: CacheKeyPolicy
    /// The encoder controls of a URL that sets none with `jpgo`, `pngo` or `ch` (imgproxy's
    /// `IMGPROXY_JPEG_PROGRESSIVE` and `IMGPROXY_PNG_QUANTIZE`). Default none.
    public var encoderControls = EncoderControls()
    /// The palette size `pngo:...:1` quantizes to when the URL gives none (imgproxy's
    /// `IMGPROXY_PNG_QUANTIZATION_COLORS`), 2 to 256. Default 256.
    public var quantizationColors = 256
    /// The presets `pr:` names; `default`, when defined, is applied before a URL's own options.
    /// Default none.
    public var presets: ServePresets
    /// imgproxy's `ONLY_PRESETS`: the segment after the signature is a list of preset names
    /// (`/SIGNATURE/NAME:NAME/SOURCE`) and a URL writes no options of its own. Default false.
    public var onlyPresets: Bool

    /// A configuration with `signing` and the defaults above.
    public init(
        signing: Signing, maxPathLength: Int = 8192, limits: DecodingLimits = DecodingLimits(),
        keyPolicy: CacheKeyPolicy = CacheKeyPolicy(), presets: ServePresets = ServePresets(), onlyPresets: Bool = false
    ) {
        self.signing = signing
        self.maxPathLength = maxPathLength
        self.limits = limits
        self.keyPolicy = keyPolicy
        self.presets = presets
        self.onlyPresets = onlyPresets
    }
}
