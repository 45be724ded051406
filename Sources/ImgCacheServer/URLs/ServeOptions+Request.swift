import Foundation
import ImgCache

/// The request the options make, once every option has been applied.
extension ServeOptions {
    /// The request for `source`: the target and content mode (`targetAndMode`), upscaling,
    /// frames, budget, the output format, quality and byte cap, the encoder controls, the colour
    /// policy, the blur and tint, and for a cache buster a cache key of the source's key under `keyPolicy` and the
    /// buster. A slice waits for the screenshot's size (`ServeSlice`); it is PNG with the
    /// screenshot's colour profile kept unless `f` or `cp` say otherwise, as the CLI's `slice`.
    func request(source: URL, keyPolicy: CacheKeyPolicy) throws(ServeURLError) -> ServeRequest {
        let (target, mode) = try extended(targetAndMode())
        let isSlice = slice != nil
        let outputFormat: ImageRequest.OutputFormat
        switch format {
        case nil: outputFormat = isSlice ? .png : .automatic
        case .jpeg: outputFormat = .jpeg(quality: quality == 0 ? JPEGEncoder.defaultQuality : quality)
        case .png: outputFormat = .png
        case .gif: outputFormat = .gif
        case .webp: outputFormat = .webp(quality: quality == 0 ? JPEGEncoder.defaultQuality : quality)
        case .avif: outputFormat = .avif(quality: quality == 0 ? AVIFEncoder.defaultQuality : quality)
        }
        var request = ImageRequest(
            url: source, target: target, contentMode: mode, gravity: mode == .pad ? extendGravity : gravity,
            allowsUpscaling: enlarge, maxFrames: maxFrames, frameBudgetBytes: frameBudget, outputFormat: outputFormat,
            colorPolicy: colorPolicy ?? (isSlice ? .keep : .convert), quality: outputFormat == .automatic && quality != 0 ? quality : nil,
            maxBytes: maxBytes == 0 ? nil : maxBytes, background: background)
        request.processors = try processors()
        request.encoderControls = encoderControls
        if let cacheBuster { request.cacheKey = keyPolicy.key(for: source) + " cachebuster:" + cacheBuster }
        guard let slice else { return ServeRequest(sourceURL: source, plan: .ready(request), expires: expires) }
        if let widget, widget.device.kind != .iPhone {
            throw .invalidOption(name: "sl", detail: "home-screen slices are of iPhone screenshots; \(widget.option) names an iPad")
        }
        return ServeRequest(
            sourceURL: source,
            plan: .slice(ServeSlice(
                family: slice.family, position: slice.position, icons: slice.icons, iOS: slice.iOS, device: widget?.device,
                request: request)),
            expires: expires)
    }

    /// `bl`'s blur in pixels, then `ti`'s tint.
    private func processors() throws(ServeURLError) -> [any ImageProcessing] {
        var processors: [any ImageProcessing] = []
        if let blur {
            do {
                processors.append(try GaussianBlur(sigma: blur, unit: .pixels))
            } catch {
                throw .invalidOption(name: "bl", detail: Self.detail(of: error))
            }
        }
        if let tint { processors.append(tint) }
        return processors
    }

    /// The target and how the source is fitted to it:
    /// - `wd:` gives the widget's target (no `w`, `h` or `dpr` beside it), cropped to exactly its
    ///   pixels unless the resizing type is `fit`;
    /// - no width and no height keep the source's size (`dpr` is then refused);
    /// - width and height (times `dpr`, rounded half away from zero) are the target in pixels:
    ///   `fit`, the default, fits inside it; `fill` and `fill-down` crop it (at the gravity, `g`);
    /// - a width or a height alone fits to it, the other side following the source's aspect ratio
    ///   (whatever the resizing type, as imgproxy does), up to the output limit: the target's
    ///   other side is `maxOutputPixels` / the given side, at most `ImageTarget.maxSide`.
    /// The resizing types `force` and `auto` are refused wherever there is a target.
    private func targetAndMode() throws(ServeURLError) -> (ImageTarget?, ContentMode) {
        if let widget {
            guard width == 0, height == 0 else {
                throw .invalidOption(name: sizeOption, detail: "the size comes from \(widget.option): give no width or height beside it")
            }
            guard dpr == 1 else {
                throw .invalidOption(name: dprOption, detail: "the scale comes from the device with \(widget.option)")
            }
            return (widget.target, try contentMode(fill: .crop, unset: .crop))
        }
        switch (try pixels(width, "width"), try pixels(height, "height")) {
        case (nil, nil):
            guard dpr == 1 else { throw .invalidOption(name: dprOption, detail: "dpr multiplies a width or height: give one") }
            return (nil, .fit)
        case (let width?, let height?):
            let size = PixelSize(width: width, height: height)
            guard size.area <= limits.maxOutputPixels else {
                throw .invalidOption(name: sizeOption, detail: "\(size) is over the output limit of \(limits.maxOutputPixels) pixels")
            }
            return (.pixels(size), try contentMode(fill: .crop, unset: .fit))
        case (let width?, nil):
            return (.pixels(PixelSize(width: width, height: try otherSide(width))), try contentMode(fill: .fit, unset: .fit))
        case (nil, let height?):
            return (.pixels(PixelSize(width: try otherSide(height), height: height)), try contentMode(fill: .fit, unset: .fit))
        }
    }

    /// `target` and `mode`, padded (`.pad`) when `ex` is true: only a fit to a width and a height
    /// (or a widget's size) is padded, as there is nothing to pad a fill or a single side out to.
    private func extended(_ fitted: (ImageTarget?, ContentMode)) throws(ServeURLError) -> (ImageTarget?, ContentMode) {
        guard extend else { return fitted }
        guard fitted.1 == .fit, fitted.0 != nil, widget != nil || (width != 0 && height != 0) else {
            throw .unsupportedOption(
                name: extendOption, detail: "extend pads a fit to a width and a height (rt:fit with w and h, or wd:); it has nothing to pad here")
        }
        return (fitted.0, .pad)
    }

    /// The content mode of the resizing type: `fill` for fill and fill-down, `unset` when none was given.
    private func contentMode(fill: ContentMode, unset: ContentMode) throws(ServeURLError) -> ContentMode {
        switch resizingType {
        case nil: return unset
        case .fit: return .fit
        case .fill, .fillDown: return fill
        case .force:
            throw .unsupportedOption(name: resizingTypeOption, detail: "force changes the aspect ratio, which imgcache never does: fit or fill")
        case .auto:
            throw .unsupportedOption(
                name: resizingTypeOption, detail: "auto picks fill or fit by the source's orientation: give fit or fill")
        }
    }

    /// `value` (a width or height) times `dpr` in whole pixels, nil for 0; refused outside
    /// 1...`ImageTarget.maxSide`.
    private func pixels(_ value: Int, _ what: String) throws(ServeURLError) -> Int? {
        guard value != 0 else { return nil }
        let pixels = (Double(value) * dpr).rounded(.toNearestOrAwayFromZero)
        guard pixels >= 1, pixels <= Double(ImageTarget.maxSide) else {
            throw .invalidOption(
                name: dprOption, detail: "\(what) \(value) x dpr \(dprText) is \(Int(pixels)) pixels, not in 1...\(ImageTarget.maxSide)")
        }
        return Int(pixels)
    }

    /// The target's other side when one side of `side` pixels is given: as many pixels as the
    /// output limit leaves, at most `ImageTarget.maxSide`.
    private func otherSide(_ side: Int) throws(ServeURLError) -> Int {
        guard let other = limits.otherSide(forSide: side) else {
            throw .invalidOption(name: sizeOption, detail: "a side of \(side) pixels is over the output limit of \(limits.maxOutputPixels) pixels")
        }
        return other
    }
}
