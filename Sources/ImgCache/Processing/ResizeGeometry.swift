/// Where the output pixels come from: the region of the source they cover and the output size.
///
/// Output sizes and crop offsets are whole pixels, rounded half away from zero, so nothing is ever
/// drawn at a fractional pixel. The source region may have fractional edges (it is the whole-pixel
/// output rectangle mapped back into the source).
struct ResizeGeometry: Equatable, Sendable {
    /// Size of the source the region refers to.
    var sourceSize: PixelSize
    /// Region of the source covered by the output, in source pixels.
    var sourceX: Double
    var sourceY: Double
    var sourceWidth: Double
    var sourceHeight: Double
    /// Size of the result.
    var outputSize: PixelSize

    /// Source pixels per output pixel along the less reduced axis (1 when not reduced).
    var reductionFactor: Double {
        min(sourceWidth / Double(outputSize.width), sourceHeight / Double(outputSize.height))
    }

    /// The geometry that keeps the whole source at its own size.
    static func identity(_ size: PixelSize) -> ResizeGeometry {
        ResizeGeometry(
            sourceSize: size, sourceX: 0, sourceY: 0,
            sourceWidth: Double(size.width), sourceHeight: Double(size.height), outputSize: size)
    }

    /// Plans how `source` maps to `target` in `mode`.
    ///
    /// - fit (and pad, which is padded to the target afterwards): the largest size inside
    ///   `target` with the source's aspect ratio.
    /// - fill: the smallest size covering `target` with the source's aspect ratio.
    /// - crop: `target` exactly, cut from the fill size around `focus` (fractions of the source,
    ///   default its centre: see `CropGravity`), as far as the fill size allows.
    /// Unless `allowsUpscaling`, the scale never exceeds 1: fit and fill then keep the source size,
    /// and crop cuts the largest region of the target's aspect ratio out of the source, placed
    /// the same way. A nil target keeps the source as it is.
    static func plan(
        source: PixelSize, target: PixelSize?, mode: ContentMode, allowsUpscaling: Bool,
        focus: (x: Double, y: Double) = (0.5, 0.5)
    ) -> ResizeGeometry {
        guard let target else { return identity(source) }
        let sw = Double(source.width), sh = Double(source.height)
        let scaleX = Double(target.width) / sw, scaleY = Double(target.height) / sh
        let coverScale = max(scaleX, scaleY)
        switch mode {
        case .fit, .pad, .fill:
            let fits = mode != .fill
            var scale = fits ? min(scaleX, scaleY) : coverScale
            if !allowsUpscaling { scale = min(scale, 1) }
            if scale == 1 { return identity(source) }
            let limitingAxisIsX = fits == (scaleX <= scaleY)
            let width = limitingAxisIsX ? target.width : roundedPixels(sw * scale)
            let height = limitingAxisIsX ? roundedPixels(sh * scale) : target.height
            return ResizeGeometry(
                sourceSize: source, sourceX: 0, sourceY: 0, sourceWidth: sw, sourceHeight: sh,
                outputSize: PixelSize(width: width, height: height))
        case .crop:
            if coverScale > 1 && !allowsUpscaling {
                return region(of: source, withAspectOf: target, focus: focus)
            }
            let coverIsX = scaleX >= scaleY
            let scaledWidth = coverIsX ? target.width : roundedPixels(sw * coverScale)
            let scaledHeight = coverIsX ? roundedPixels(sh * coverScale) : target.height
            let offsetX = offset(of: target.width, in: scaledWidth, centredOn: focus.x)
            let offsetY = offset(of: target.height, in: scaledHeight, centredOn: focus.y)
            let perOutputX = sw / Double(scaledWidth), perOutputY = sh / Double(scaledHeight)
            return ResizeGeometry(
                sourceSize: source,
                sourceX: Double(offsetX) * perOutputX, sourceY: Double(offsetY) * perOutputY,
                sourceWidth: Double(target.width) * perOutputX,
                sourceHeight: Double(target.height) * perOutputY,
                outputSize: target)
        }
    }

    /// This geometry, planned for `region` of a larger source of `size` as if the region were the
    /// whole source, as a geometry of that larger source.
    func placed(at region: PixelRect, in size: PixelSize) -> ResizeGeometry {
        var placed = self
        placed.sourceSize = size
        placed.sourceX += Double(region.x)
        placed.sourceY += Double(region.y)
        return placed
    }

    /// The largest whole-pixel region of `source` with the aspect ratio of `target`, unscaled,
    /// centred on `focus` as far as it fits.
    private static func region(
        of source: PixelSize, withAspectOf target: PixelSize, focus: (x: Double, y: Double)
    ) -> ResizeGeometry {
        var width = source.width, height = source.height
        if target.width * source.height > source.width * target.height {
            height = roundedPixels(Double(source.width) * Double(target.height) / Double(target.width))
        } else {
            width = roundedPixels(Double(source.height) * Double(target.width) / Double(target.height))
        }
        let offsetX = offset(of: width, in: source.width, centredOn: focus.x)
        let offsetY = offset(of: height, in: source.height, centredOn: focus.y)
        return ResizeGeometry(
            sourceSize: source, sourceX: Double(offsetX), sourceY: Double(offsetY),
            sourceWidth: Double(width), sourceHeight: Double(height),
            outputSize: PixelSize(width: width, height: height))
    }

    /// A length in pixels, rounded half away from zero and at least one.
    static func roundedPixels(_ value: Double) -> Int {
        max(1, Int(value.rounded(.toNearestOrAwayFromZero)))
    }

    /// Where a window of `window` pixels starts in `whole` pixels (at least as many) when it is
    /// centred on `fraction` of them, moved inside as far as needed; rounded half away from zero.
    /// At 0.5 it is centred: half the excess.
    private static func offset(of window: Int, in whole: Int, centredOn fraction: Double) -> Int {
        let centred = Int((fraction * Double(whole) - Double(window) / 2).rounded(.toNearestOrAwayFromZero))
        return min(max(centred, 0), max(0, whole - window))
    }
}
