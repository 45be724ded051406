/// Extends every frame to `size`, placing the image where `gravity` says (its point of the image
/// on the same point of the canvas: the centre in the centre, `north` against the top edge) and
/// filling the rest with `fill`; a frame already as large on an axis keeps that axis as it is
/// (no crop). `ContentMode.pad` runs one to the target's size. Holds one output frame at a time
/// beside its input.
public struct Padding: ImageProcessing {
    /// The canvas every frame is extended to, at least on each axis the frame is smaller on.
    public var size: PixelSize
    /// Default `.center`.
    public var gravity: CropGravity
    /// The colour of the added pixels. Default transparent.
    public var fill: RGBAColor

    /// Padding to `size`; `gravity` default `.center`, `fill` default transparent.
    public init(size: PixelSize, gravity: CropGravity = .center, fill: RGBAColor = .transparent) {
        self.size = size
        self.gravity = gravity
        self.fill = fill
    }

    /// `pad(WxH,GRAVITY,RRGGBBAA)`.
    public var identifier: String {
        "pad(\(size),\(gravity.keyName),\(fill))"
    }

    /// - Throws: `invalidArgument` for a size that is not positive or a focal point outside 0...1.
    public func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
        guard size.width > 0, size.height > 0 else { throw ImgCacheError.invalidArgument("padding size \(size) must be positive") }
        try gravity.validate()
        var image = image
        for index in image.frames.indices {
            image.frames[index].bitmap = padded(image.frames[index].bitmap)
        }
        return image
    }

    private func padded(_ bitmap: Bitmap) -> Bitmap {
        let canvas = PixelSize(width: max(size.width, bitmap.width), height: max(size.height, bitmap.height))
        guard canvas != bitmap.size else { return bitmap }
        let (x, y) = gravity.point
        let left = Int((Double(canvas.width - bitmap.width) * x).rounded())
        let top = Int((Double(canvas.height - bitmap.height) * y).rounded())
        var pixels = [UInt8](repeating: 0, count: canvas.area * 4)
        if fill != .transparent {
            let color = [fill.red, fill.green, fill.blue, fill.alpha]
            for offset in stride(from: 0, to: pixels.count, by: 4) { pixels.replaceSubrange(offset..<offset + 4, with: color) }
        }
        let rowBytes = bitmap.width * 4
        for row in 0..<bitmap.height {
            let to = ((row + top) * canvas.width + left) * 4
            pixels.replaceSubrange(to..<to + rowBytes, with: bitmap.pixels[row * rowBytes..<(row + 1) * rowBytes])
        }
        return Bitmap(unchecked: canvas, pixels: pixels)
    }
}
