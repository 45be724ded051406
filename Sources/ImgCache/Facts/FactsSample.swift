/// The pixels the facts are computed from: the image itself when it fits in 100 x 100, else the
/// image shrunk by area to fit (premultiplied, so that transparent pixels lend no colour), with the
/// exact average of the whole image.
struct FactsSample {
    /// At most 100 x 100 pixels, straight alpha.
    let bitmap: Bitmap
    /// The mean of the image's premultiplied red, green and blue and of its alpha, 0...255.
    let premultipliedMean: SIMD4<Double>

    init(_ image: Bitmap) {
        let longest = max(image.width, image.height)
        guard longest > ThumbHash.maxSide else {
            bitmap = image
            premultipliedMean = Self.mean(of: image)
            return
        }
        let scale = Double(ThumbHash.maxSide) / Double(longest)
        let size = PixelSize(
            width: max(1, Int((Double(image.width) * scale).rounded())), height: max(1, Int((Double(image.height) * scale).rounded())))
        let cells = AreaShrink.premultiplied(image, to: size)
        var sum = SIMD4<Double>()
        var pixels = [UInt8](repeating: 0, count: size.area * 4)
        for (index, cell) in cells.enumerated() {
            sum += SIMD4<Double>(cell)
            let straight = cell.w > 0 ? cell * (255 / cell.w) : .zero
            pixels[index * 4] = Self.byte(straight.x)
            pixels[index * 4 + 1] = Self.byte(straight.y)
            pixels[index * 4 + 2] = Self.byte(straight.z)
            pixels[index * 4 + 3] = Self.byte(cell.w)
        }
        bitmap = Bitmap(unchecked: size, pixels: pixels)
        // Every source pixel weighs the same in an area shrink: the mean of the cells is the image's.
        premultipliedMean = sum / Double(cells.count)
    }

    private static func byte(_ value: Float) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }

    /// The exact mean of `image`'s premultiplied channels and alpha.
    private static func mean(of image: Bitmap) -> SIMD4<Double> {
        var sum = SIMD4<Double>()
        image.pixels.withUnsafeBufferPointer { pixels in
            var offset = 0
            while offset < pixels.count {
                let alpha = Double(pixels[offset + 3])
                sum += SIMD4(
                    Double(pixels[offset]) * alpha / 255, Double(pixels[offset + 1]) * alpha / 255,
                    Double(pixels[offset + 2]) * alpha / 255, alpha)
                offset += 4
            }
        }
        return sum / Double(image.size.area)
    }
}
