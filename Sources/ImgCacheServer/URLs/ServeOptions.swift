import ImgCache

/// The processing options of one serve path, applied in their order as imgproxy applies them: a
/// later option overrides what an earlier one set (`w:300/rs:fit:0:0` leaves no width, as
/// imgproxy's clients rely on), then turned into the request (`ServeOptions+Request.swift`).
/// imgproxy's options are in `ServeOptions+Imgproxy.swift`, imgcache's own in
/// `ServeOptions+Imgcache.swift`.
struct ServeOptions {
    /// imgproxy's resizing types (`rt`, and `rs`'s first argument).
    enum ResizingType: String, CaseIterable {
        case fit, fill
        case fillDown = "fill-down"
        case force, auto
    }

    /// The output formats imgcache writes.
    enum Format: Equatable {
        case jpeg, png, gif, webp, avif
    }

    /// A widget preset (`wd:`): its target, resolved when parsed, and the device.
    struct Widget {
        let target: ImageTarget
        let device: DeviceModel
        /// The option as written, for messages.
        let option: String
    }

    /// A wallpaper slice (`sl:`), resolved once the screenshot's size is known.
    struct Slice {
        let family: WidgetFamily
        let position: SlotPosition
        let icons: IconLayout
        let iOS: Int?
    }

    /// The pipeline's limits: targets are checked against `maxOutputPixels`.
    let limits: DecodingLimits

    /// Nil until given: `fit`, or crop with `wd:`.
    var resizingType: ResizingType?
    /// imgproxy's width and height, before `dpr`; 0 for none.
    var width = 0
    var height = 0
    var dpr = 1.0
    /// `dpr` as written, for messages.
    var dprText = "1"
    var enlarge = false
    /// `g`: which part a fill keeps.
    var gravity = CropGravity.center
    /// `ex`: a fit is padded out to the size (`ContentMode.pad`).
    var extend = false
    /// `ex`'s gravity: where the padded image sits.
    var extendGravity = CropGravity.center
    /// `ex` as written, for messages.
    var extendOption = "ex"
    /// `bg`: the padding's colour and what translucent pixels are composited over.
    var background: RGBAColor?
    /// imgproxy's quality: 1 to 100, or 0 for the format's default (85; AVIF 63, imgproxy's).
    var quality = 0
    /// Nil until given: automatic, or PNG for a slice.
    var format: Format?
    /// `mb`: the output's byte cap; 0 for none.
    var maxBytes = 0
    var cacheBuster: String?
    var widget: Widget?
    var maxFrames: Int?
    var frameBudget: Int?
    /// Nil until given: `.convert`, or `.keep` for a slice.
    var colorPolicy: ColorPolicy?
    var slice: Slice?
    /// `bl`: a blur's sigma in pixels of the output; nil for none.
    var blur: Double?
    /// `ti`: laid over the image after any blur; nil for none.
    var tint: Tint?
    /// `jpgo`, `pngo` and `ch`: the server's defaults until a URL sets them.
    var encoderControls: EncoderControls
    /// `pngo`'s palette size, used once `pngo` quantizes: the server's default until set.
    var quantizationColors: Int
    /// `exp`: the Unix time after which the URL is refused; nil for none.
    var expires: Int?

    /// The options that last set the resizing type, a dimension and the dpr, as written, for messages.
    var resizingTypeOption = "rt"
    var sizeOption = "w"
    var dprOption = "dpr"

    init(limits: DecodingLimits, encoderControls: EncoderControls = EncoderControls(), quantizationColors: Int = 256) {
        self.limits = limits
        self.encoderControls = encoderControls
        self.quantizationColors = quantizationColors
    }

    /// Applies one option; throws `unknownOption` for a name no one has, `unsupportedOption` for
    /// one of imgproxy's that imgcache lacks, and what the option's reader throws.
    mutating func apply(_ option: ServeOption) throws(ServeURLError) {
        switch option.name {
        case "resize", "rs": try applyResize(option)
        case "size", "s": try applySize(option)
        case "resizing_type", "rt": try applyResizingType(option)
        case "width", "w": try applyWidth(option)
        case "height", "h": try applyHeight(option)
        case "dpr": try applyDPR(option)
        case "enlarge", "el": try applyEnlarge(option)
        case "extend", "ex": try applyExtend(option)
        case "gravity", "g": try applyGravity(option)
        case "background", "bg": try applyBackground(option)
        case "quality", "q": try applyQuality(option)
        case "format", "f", "ext": try applyFormat(option)
        case "max_bytes", "mb": try applyMaxBytes(option)
        case "cachebuster", "cb": try applyCacheBuster(option)
        case "widget", "wd": try applyWidget(option)
        case "frames", "fr": try applyFrames(option)
        case "budget", "bu": try applyBudget(option)
        case "color_policy", "cp": try applyColorPolicy(option)
        case "slice", "sl": try applySlice(option)
        case "blur", "bl": try applyBlur(option)
        case "tint", "ti": try applyTint(option)
        case "jpeg_options", "jpgo": try applyJPEGOptions(option)
        case "png_options", "pngo": try applyPNGOptions(option)
        case "chroma", "ch": try applyChroma(option)
        case "expires", "exp": try applyExpires(option)
        default:
            if let detail = Self.unsupportedImgproxyOptions[option.name] {
                throw .unsupportedOption(name: option.name, detail: detail)
            }
            throw .unknownOption(name: ServeURLError.quote(option.name))
        }
    }
}
