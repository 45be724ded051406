/// The smart crop (`CropGravity.smart`): cuts every frame to the window of most interest, found as
/// libvips' `attention` smartcrop finds it (`vips_smartcrop_attention`, libvips/conversion/
/// smartcrop.c; see `AttentionMap`): edges, skin tones and saturation scored on a 32 x 32 preview
/// of the frames, blurred with a Gaussian as wide as a tenth of the window's diagonal (in preview
/// cells, at least 1), and the window centred on the maximum, moved inside the frame as far as
/// needed. An animation gets one window for all its frames, from the sum of every frame's scores,
/// so that a subject that moves stays in view as far as one window allows.
///
/// A `.crop` request with `.smart` gravity decodes to the `.fill` size (so JPEG still scales in
/// its decoder and nothing is cut before it is measured) and is cut to the target by this crop
/// before the request's own processors run; frames kept are counted at the cropped size.
///
/// Memory: the frames it is given and their cropped copies, plus `AttentionMap`'s buffers (one
/// image row in floats and 512 bytes a row). Cost: one pass over the pixels to shrink them.
public struct AttentionCrop: ImageProcessing {
    /// The window's size: frames at least as large on both sides are cut to exactly this; a
    /// frame smaller on a side is cut to its largest region of this aspect ratio, as an
    /// unscaled `.crop` is.
    public let target: PixelSize

    /// A smart crop to windows of `target`.
    public init(target: PixelSize) {
        self.target = target
    }

    /// The crop a decode with `options` ends with: for a `.crop` to a target size with `.smart`
    /// gravity, nil otherwise.
    init?(for options: DecodingOptions) {
        guard options.contentMode == .crop, options.gravity == .smart, let target = options.targetSize else { return nil }
        self.init(target: target)
    }

    /// `attention-crop(WxH)`.
    public var identifier: String { "attention-crop(\(target))" }

    /// - Throws: `invalidArgument` for frames of different sizes (one window cannot cut them all).
    public func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
        guard let first = image.frames.first else { return image }
        guard image.frames.allSatisfy({ $0.bitmap.size == first.bitmap.size }) else {
            throw ImgCacheError.invalidArgument("a smart crop cuts frames of one size; these are of several")
        }
        let window = window(in: image.frames.map(\.bitmap))
        guard window.size != first.bitmap.size else { return image }
        var cropped = image
        for index in cropped.frames.indices {
            cropped.frames[index].bitmap = Self.cut(window, from: cropped.frames[index].bitmap)
        }
        return cropped
    }

    /// The window of most interest in `bitmaps` (all of one size; at least one).
    func window(in bitmaps: [Bitmap]) -> PixelRect {
        let size = bitmaps[0].size
        let crop = cropSize(of: size)
        guard crop != size else { return PixelRect(x: 0, y: 0, width: size.width, height: size.height) }
        var map = AttentionMap()
        for bitmap in bitmaps { map.add(bitmap) }
        let side = Double(AttentionMap.side)
        let across = Double(crop.width) * side / Double(size.width), down = Double(crop.height) * side / Double(size.height)
        let peak = map.peak(sigma: max((across * across + down * down).squareRoot() / 10, 1))
        // The cell's top left corner in pixels, as vips maps its maximum back.
        let x = peak.x * size.width / AttentionMap.side, y = peak.y * size.height / AttentionMap.side
        return PixelRect(
            x: min(max(x - crop.width / 2, 0), size.width - crop.width),
            y: min(max(y - crop.height / 2, 0), size.height - crop.height),
            width: crop.width, height: crop.height)
    }

    /// The size a frame of `size` is cut to (see `target`).
    func cropSize(of size: PixelSize) -> PixelSize {
        ResizeGeometry.plan(source: size, target: target, mode: .crop, allowsUpscaling: false).outputSize
    }

    /// The pixels of `window` (inside `bitmap`).
    private static func cut(_ window: PixelRect, from bitmap: Bitmap) -> Bitmap {
        var pixels = [UInt8]()
        pixels.reserveCapacity(window.size.area * 4)
        for row in window.y..<window.maxY {
            let start = (row * bitmap.width + window.x) * 4
            pixels.append(contentsOf: bitmap.pixels[start..<start + window.width * 4])
        }
        return Bitmap(unchecked: window.size, pixels: pixels)
    }
}
