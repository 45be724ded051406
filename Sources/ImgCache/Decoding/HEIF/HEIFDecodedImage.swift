import CHeif

/// A decoded libheif image, released with the value, whose rows are read one at a time as 8-bit
/// straight RGBA: planar YCbCr (4:2:0, 4:2:2, 4:4:4, chroma taken from the nearest sample, as
/// libheif 1.15 does) or monochrome at up to 16 bits converted here with its `YCbCrMatrix`, or
/// interleaved or planar 8-bit RGB(A) copied.
final class HEIFDecodedImage {
    /// One plane: its first byte, bytes per row, and bits per sample (more than 8: 16-bit samples).
    private struct Plane {
        let base: UnsafePointer<UInt8>
        let stride: Int
        let bits: Int

        init?(_ image: OpaquePointer, _ channel: heif_channel) {
            var stride: Int32 = 0
            guard heif_image_has_channel(image, channel) != 0, let base = heif_image_get_plane_readonly(image, channel, &stride) else {
                return nil
            }
            let bits = Int(heif_image_get_bits_per_pixel_range(image, channel))
            guard (1...16).contains(bits) else { return nil }
            self.base = base
            self.stride = Int(stride)
            self.bits = bits
        }

        /// The sample at (`x`, `y`) scaled to 0...1.
        func value(x: Int, y: Int) -> Float {
            let row = base + y * stride
            let sample = bits > 8 ? Float(UnsafeRawPointer(row).loadUnaligned(fromByteOffset: x * 2, as: UInt16.self)) : Float(row[x])
            return sample / Float((1 << bits) - 1)
        }
    }

    private enum Layout {
        case interleaved(Plane, channels: Int)
        case rgb(red: Plane, green: Plane, blue: Plane)
        case ycbcr(luma: Plane, cb: Plane, cr: Plane, shiftX: Int, shiftY: Int, matrix: YCbCrMatrix)
        case monochrome(Plane, matrix: YCbCrMatrix)
    }

    private let image: OpaquePointer
    private let layout: Layout
    private let alpha: Plane?
    let size: PixelSize

    /// `image` as planes, or nil (the image not released) when it is not planar YCbCr,
    /// monochrome or 8-bit RGB.
    init?(planar image: OpaquePointer, matrix: YCbCrMatrix) {
        let colorspace = heif_image_get_colorspace(image)
        // The plane that gives the size: luma, or red.
        let first = colorspace == heif_colorspace_RGB ? heif_channel_R : heif_channel_Y
        let width = Int(heif_image_get_width(image, first)), height = Int(heif_image_get_height(image, first))
        guard width > 0, height > 0, let luma = Plane(image, first) else { return nil }
        switch (colorspace, heif_image_get_chroma_format(image)) {
        case (heif_colorspace_monochrome, _):
            layout = .monochrome(luma, matrix: matrix)
        case (heif_colorspace_RGB, heif_chroma_444):
            guard let green = Plane(image, heif_channel_G), let blue = Plane(image, heif_channel_B), [luma.bits, green.bits, blue.bits] == [8, 8, 8]
            else { return nil }
            layout = .rgb(red: luma, green: green, blue: blue)
        case (heif_colorspace_YCbCr, let chroma) where [heif_chroma_420, heif_chroma_422, heif_chroma_444].contains(chroma):
            guard let cb = Plane(image, heif_channel_Cb), let cr = Plane(image, heif_channel_Cr), cb.bits == luma.bits, cr.bits == luma.bits
            else { return nil }
            layout = .ycbcr(
                luma: luma, cb: cb, cr: cr, shiftX: chroma == heif_chroma_444 ? 0 : 1, shiftY: chroma == heif_chroma_420 ? 1 : 0, matrix: matrix)
        default:
            return nil
        }
        self.image = image
        alpha = Plane(image, heif_channel_Alpha)
        size = PixelSize(width: width, height: height)
    }

    /// `image`, interleaved 8-bit RGB (`channels` 3) or RGBA (4).
    init(interleaved image: OpaquePointer, channels: Int) throws {
        self.image = image
        size = PixelSize(
            width: Int(heif_image_get_width(image, heif_channel_interleaved)), height: Int(heif_image_get_height(image, heif_channel_interleaved)))
        guard size.width > 0, size.height > 0, let plane = Plane(image, heif_channel_interleaved) else {
            heif_image_release(image)
            throw ImgCacheError.corruptImage(format: .heic, detail: "libheif returned an image without pixels")
        }
        layout = .interleaved(plane, channels: channels)
        alpha = nil
    }

    deinit { heif_image_release(image) }

    /// Writes the first `width` pixels of row `y` (default and at most `size.width`) as 8-bit
    /// straight RGBA to `target`, alpha divided out when `premultiplied`.
    func rgbaRow(_ y: Int, premultiplied: Bool, into target: UnsafeMutablePointer<UInt8>, width: Int? = nil) {
        let width = min(width ?? size.width, size.width)
        switch layout {
        case .interleaved(let plane, let channels):
            let source = plane.base + y * plane.stride
            for x in 0..<width {
                target[x * 4] = source[x * channels]
                target[x * 4 + 1] = source[x * channels + 1]
                target[x * 4 + 2] = source[x * channels + 2]
                target[x * 4 + 3] = channels == 4 ? source[x * 4 + 3] : 255
            }
            if premultiplied && channels == 4 { Self.unpremultiply(target, width: width) }
            return
        case .rgb(let red, let green, let blue):
            let (r, g, b) = (red.base + y * red.stride, green.base + y * green.stride, blue.base + y * blue.stride)
            for x in 0..<width {
                target[x * 4] = r[x]
                target[x * 4 + 1] = g[x]
                target[x * 4 + 2] = b[x]
            }
        case .ycbcr(let luma, let cb, let cr, let shiftX, let shiftY, let matrix):
            let chromaY = y >> shiftY
            for x in 0..<width {
                let rgb = matrix.rgb(
                    y: luma.value(x: x, y: y), cb: cb.value(x: x >> shiftX, y: chromaY), cr: cr.value(x: x >> shiftX, y: chromaY),
                    bits: luma.bits)
                target[x * 4] = Self.byte(rgb.r)
                target[x * 4 + 1] = Self.byte(rgb.g)
                target[x * 4 + 2] = Self.byte(rgb.b)
            }
        case .monochrome(let luma, let matrix):
            for x in 0..<width {
                let gray = Self.byte(matrix.gray(y: luma.value(x: x, y: y), bits: luma.bits))
                target[x * 4] = gray
                target[x * 4 + 1] = gray
                target[x * 4 + 2] = gray
            }
        }
        for x in 0..<width { target[x * 4 + 3] = alpha.map { Self.byte($0.value(x: x, y: y)) } ?? 255 }
        if premultiplied && alpha != nil { Self.unpremultiply(target, width: width) }
    }

    /// True when rows carry an alpha channel.
    var hasAlpha: Bool {
        if case .interleaved(_, let channels) = layout { return channels == 4 }
        return alpha != nil
    }

    private static func byte(_ value: Float) -> UInt8 {
        UInt8(max(0, min(255, (value * 255).rounded())))
    }

    private static func unpremultiply(_ row: UnsafeMutablePointer<UInt8>, width: Int) {
        for x in 0..<width {
            let alpha = Int(row[x * 4 + 3])
            guard alpha > 0, alpha < 255 else { continue }
            for channel in 0..<3 { row[x * 4 + channel] = UInt8(min(255, (Int(row[x * 4 + channel]) * 255 + alpha / 2) / alpha)) }
        }
    }
}
