import ImgCache

/// imgproxy's options, with imgproxy's names, argument order and meaning where imgcache has them
/// (docs.imgproxy.net, "Processing an image"); the rest are refused by name.
extension ServeOptions {
    /// `rs:TYPE:WIDTH:HEIGHT:ENLARGE:EXTEND`: an empty or missing argument keeps what was set before.
    mutating func applyResize(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...5, "rs:TYPE:WIDTH:HEIGHT:ENLARGE:EXTEND")
        if !option.isOmitted(0) { try setResizingType(option, 0) }
        try applySizeArguments(option, from: 1)
    }

    /// `s:WIDTH:HEIGHT:ENLARGE:EXTEND`, as `rs` without the type.
    mutating func applySize(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...4, "s:WIDTH:HEIGHT:ENLARGE:EXTEND")
        try applySizeArguments(option, from: 0)
    }

    mutating func applyResizingType(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "rt:fit, rt:fill or rt:fill-down")
        try setResizingType(option, 0)
    }

    mutating func applyWidth(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "w:WIDTH")
        width = try dimension(option, 0, "width")
    }

    mutating func applyHeight(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "h:HEIGHT")
        height = try dimension(option, 0, "height")
    }

    /// `dpr:N`: width and height are multiplied by N, above 0 and at most 16 (`ImageTarget.scales`).
    mutating func applyDPR(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "dpr:SCALE")
        dpr = try option.positiveDecimal(0, "dpr", maximum: Int(ImageTarget.scales.upperBound))
        dprText = option.arguments[0]
        dprOption = option.name
    }

    mutating func applyEnlarge(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "el:1 or el:0")
        enlarge = try option.bool(0, "enlarge")
    }

    /// `ex:EXTEND:GRAVITY`: a true `EXTEND` pads a fit out to the width and height
    /// (`ContentMode.pad`), the image placed at `GRAVITY` (as `g`'s, without `sm`; default `ce`).
    mutating func applyExtend(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...4, "ex:EXTEND:GRAVITY")
        try setExtend(option, 0)
        guard option.arguments.count > 1 else { return }
        extendGravity = try Self.gravity(option, from: 1, usage: "ex:1:TYPE or ex:1:fp:X:Y")
        if extendGravity == .smart {
            throw .unsupportedOption(
                name: option.name,
                detail: "sm picks a crop's window; a padding is placed at ce, no, so, ea, we, noea, nowe, soea, sowe or fp:X:Y")
        }
    }

    /// `bg:R:G:B` (each 0 to 255) or `bg:RRGGBB` (imgproxy's), or `bg:RRGGBBAA`: the padding's
    /// colour, and what translucent pixels are composited over.
    mutating func applyBackground(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...3, "bg:R:G:B or bg:RRGGBB")
        if option.arguments.count == 3 {
            let channels = try (0..<3).map { index throws(ServeURLError) in
                UInt8(try option.wholeNumber(index, "colour channel", in: 0...255))
            }
            background = RGBAColor(red: channels[0], green: channels[1], blue: channels[2])
            return
        }
        try option.expect(1...1, "bg:R:G:B or bg:RRGGBB")
        guard let color = RGBAColor(hex: option.arguments[0]) else {
            throw option.invalid("'\(ServeURLError.quote(option.arguments[0]))' is no colour: give R:G:B or RRGGBB[AA] hex")
        }
        background = color
    }

    /// imgproxy's gravity types imgcache has, by name.
    private static let gravities: [String: CropGravity] = [
        "ce": .center, "no": .north, "so": .south, "ea": .east, "we": .west,
        "noea": .northEast, "nowe": .northWest, "soea": .southEast, "sowe": .southWest, "sm": .smart,
    ]

    /// `g:TYPE` (`ce`, `no`, `so`, `ea`, `we`, `noea`, `nowe`, `soea`, `sowe`, `sm` for the part of
    /// most interest; offsets, if any, 0) or `g:fp:X:Y` (a focal point in fractions 0 to 1 of the
    /// source): which part a fill keeps (see `CropGravity`). `obj` and offsets are not supported.
    mutating func applyGravity(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...3, "g:TYPE or g:fp:X:Y")
        gravity = try Self.gravity(option, from: 0, usage: "g:fp:X:Y")
    }

    /// The gravity written from argument `first` on: `TYPE` (offsets, if any, 0) or `fp:X:Y`.
    private static func gravity(_ option: ServeOption, from first: Int, usage: String) throws(ServeURLError) -> CropGravity {
        let type = try option.word(first, "gravity type")
        if type == "fp" {
            guard option.arguments.count == first + 3 else { throw option.invalid("give \(usage)") }
            return .focus(x: try option.fraction(first + 1, "focal point x"), y: try option.fraction(first + 2, "focal point y"))
        }
        if let named = Self.gravities[type] {
            for index in option.arguments.indices.dropFirst(first + 1) where !Self.isZero(option.arguments[index]) {
                let alone = option.arguments.prefix(first + 1).joined(separator: ":")
                throw .unsupportedOption(name: option.name, detail: "gravity offsets are not supported: give \(option.name):\(alone) alone")
            }
            return named
        }
        switch type {
        case "obj", "objw":
            throw .unsupportedOption(
                name: option.name, detail: "gravity '\(type)' is not supported: give ce, no, so, ea, we, noea, nowe, soea, sowe, sm or fp:X:Y")
        default:
            throw option.invalid("gravity type '\(ServeURLError.quote(type))' is none of imgproxy's (ce, no, so, ea, we, ..., fp, sm)")
        }
    }

    /// `q:N`: the JPEG, WebP or AVIF quality, 1 to 100, or 0 for the format's default (85; AVIF 63).
    mutating func applyQuality(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "q:QUALITY")
        quality = try option.wholeNumber(0, "quality", in: 0...100)
    }

    /// `mb:N`: the output's byte cap (`ImageRequest.maxBytes`), or 0 for none (imgproxy's default).
    mutating func applyMaxBytes(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "mb:BYTES")
        maxBytes = try option.wholeNumber(0, "max bytes", in: 0...Int(Int32.max))
    }

    mutating func applyFormat(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "f:jpg, f:png, f:gif, f:webp or f:avif")
        try setFormat(try option.word(0, "format"), option: option.name)
    }

    /// The output format named `name` (jpg, jpeg, png, gif, webp, avif), by the option `option` or
    /// by the extension after the source; every other format imgproxy writes is refused by name
    /// (HEIC saying why: its encoder, x265, is GPL).
    mutating func setFormat(_ name: String, option: String) throws(ServeURLError) {
        switch name {
        case "jpg", "jpeg": format = .jpeg
        case "png": format = .png
        case "gif": format = .gif
        case "webp": format = .webp
        case "avif": format = .avif
        case "heic":
            throw .unsupportedOption(name: option, detail: "heic output is not supported: its only encoder, x265, is GPL; use avif")
        case "jxl", "bmp", "ico", "tiff", "svg", "pdf", "mp4", "best":
            throw .unsupportedOption(name: option, detail: "\(name) output is not supported: jpg, png, gif, webp or avif")
        default:
            throw .invalidOption(name: option, detail: "'\(ServeURLError.quote(name))' is no image format: jpg, png, gif, webp or avif")
        }
    }

    /// `bl:SIGMA`: a Gaussian blur of SIGMA pixels of the resulting image, as imgproxy's (its
    /// sigma goes to libvips unscaled by `dpr`), above 0 and at most 1600
    /// (`GaussianBlur.maxSigma(.pixels)`); `bl:0` is no blur, imgproxy's default.
    mutating func applyBlur(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "bl:SIGMA")
        if Self.isZero(option.arguments[0]) {
            blur = nil
            return
        }
        blur = try option.positiveDecimal(0, "blur sigma", maximum: Int(GaussianBlur.maxSigma(.pixels)))
    }

    /// `cb:STRING`: enters the image's cache key, so that a new value fetches and renders it anew.
    mutating func applyCacheBuster(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "cb:STRING")
        cacheBuster = try option.word(0, "cache buster")
    }

    /// `exp:UNIX_TIME` (`expires`): the URL is refused (404 "Expired URL") after that second, and
    /// served until then with a `max-age` no longer than what remains (see
    /// `ServeRequest.expiry`); 0, imgproxy's "never", is no expiry.
    mutating func applyExpires(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "exp:UNIX_TIME")
        let time = try option.wholeNumber(0, "expiry time", in: 0...ServeRequest.maxExpiry)
        expires = time == 0 ? nil : time
    }

    /// imgproxy's options imgcache does not have, by every name imgproxy gives them, with what to
    /// use instead where there is something.
    static let unsupportedImgproxyOptions: [String: String] = {
        let groups: [([String], String)] = [
            (["min-width", "mw", "min-height", "mh", "zoom", "z", "crop", "c", "crop_aspect_ratio", "crop_ar", "car",
              "trim", "t", "padding", "pd", "extend_aspect_ratio", "extend_ar", "exar", "rotate", "rot", "flip", "fl",
              "objects_position", "obj_pos", "op", "resizing_algorithm", "ra"],
             "imgcache does not change the geometry this way: rs, w, h, dpr, wd or sl"),
            (["background_alpha", "bga"], "give the alpha in bg:RRGGBBAA"),
            (["adjust", "a", "brightness", "br", "contrast", "co",
              "saturation", "sa", "monochrome", "mc", "duotone", "dt", "sharpen", "sh", "pixelate", "pix",
              "unsharp_masking", "ush", "blur_detections", "bd", "draw_detections", "dd", "colorize", "col", "gradient", "gr",
              "style", "st"],
             "imgcache applies no filters or colour effects but bl (blur) and ti (tint)"),
            (["watermark", "wm", "watermark_url", "wmu", "watermark_text", "wmt", "watermark_size", "wms",
              "watermark_rotate", "wm_rot", "wmr", "watermark_shadow", "wmsh"],
             "imgcache draws no watermarks"),
            (["auto_rotate", "ar"], "imgcache always applies the EXIF orientation"),
            (["strip_metadata", "sm", "keep_copyright", "kcr", "dpi"], "imgcache's output carries no metadata but its colour profile (cp:keep)"),
            (["strip_color_profile", "scp"], "use cp:convert (to sRGB, the default), cp:keep or cp:ignore"),
            (["enforce_thumbnail", "eth"], "imgcache never uses embedded thumbnails"),
            (["format_quality", "fq", "autoquality", "aq", "webp_options", "webpo", "avif_options", "avifo"],
             "q sets the JPEG, WebP and AVIF quality, mb the byte cap, jpgo, pngo and ch the JPEG and PNG encoders; imgcache has no other encoder settings"),
            (["page", "pg", "pages", "pgs", "disable_animation", "da"], "fr:N keeps the first N frames (fr:1 a still)"),
            (["max_animation_frames", "maf"], "fr:N keeps the first N frames"),
            (["max_src_resolution", "msr", "max_src_file_size", "msfs", "max_animation_frame_resolution", "mafr",
              "max_result_dimension", "mrd"],
             "the server's limits are not set per URL"),
            (["video_thumbnail_second", "vts", "video_thumbnail_keyframes", "vtk", "video_thumbnail_tile", "vtt",
              "video_thumbnail_animation", "vta"],
             "imgcache reads no video"),
            (["skip_processing", "skp", "raw"], "imgcache always prepares the image"),
            (["fallback_image_url", "fiu"], "the fallback image is the server's (serve --fallback-image), not a URL's"),
            (["filename", "fn", "return_attachment", "att", "hashsum", "hs"], "imgcache has no such option"),
        ]
        var options: [String: String] = [:]
        for (names, detail) in groups {
            for name in names { options[name] = detail }
        }
        return options
    }()

    private mutating func setResizingType(_ option: ServeOption, _ index: Int) throws(ServeURLError) {
        resizingType = try option.choice(index, "resizing type", of: ResizingType.self)
        resizingTypeOption = option.name
    }

    /// Width, height, enlarge and extend from `first` on (`rs` and `s`); empty arguments keep
    /// what was set before.
    private mutating func applySizeArguments(_ option: ServeOption, from first: Int) throws(ServeURLError) {
        if !option.isOmitted(first) { width = try dimension(option, first, "width") }
        if !option.isOmitted(first + 1) { height = try dimension(option, first + 1, "height") }
        if !option.isOmitted(first + 2) { enlarge = try option.bool(first + 2, "enlarge") }
        if !option.isOmitted(first + 3) { try setExtend(option, first + 3) }
    }

    /// A width or height before `dpr`: 0 (none) to `ImageTarget.maxSide`.
    private mutating func dimension(_ option: ServeOption, _ index: Int, _ what: String) throws(ServeURLError) -> Int {
        let value = try option.wholeNumber(index, what, in: 0...ImageTarget.maxSide)
        sizeOption = option.name
        return value
    }

    private mutating func setExtend(_ option: ServeOption, _ index: Int) throws(ServeURLError) {
        extend = try option.bool(index, "extend")
        extendOption = option.name
    }

    /// True for a gravity offset of 0 (`0`, `0.0`).
    private static func isZero(_ text: String) -> Bool {
        let digits = text.utf8.filter { $0 != UInt8(ascii: ".") }
        return !digits.isEmpty && digits.allSatisfy { $0 == UInt8(ascii: "0") }
            && text.utf8.filter { $0 == UInt8(ascii: ".") }.count <= 1 && text.utf8.last != UInt8(ascii: ".")
    }
}
