/// Composites every frame over `color` (source over): a translucent pixel shows the colour
/// through, an opaque one is unchanged, and an opaque colour makes the image opaque (so
/// `.automatic` then stores it as JPEG). What `ImageRequest.background` runs last. Works in
/// place on each frame.
public struct BackgroundFill: ImageProcessing {
    /// The colour under every pixel.
    public var color: RGBAColor

    /// A fill of `color`.
    public init(color: RGBAColor) {
        self.color = color
    }

    /// `background(RRGGBBAA)`.
    public var identifier: String { "background(\(color))" }

    public func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
        var image = image
        for index in image.frames.indices where !image.frames[index].bitmap.isOpaque {
            image.frames[index].bitmap.composite(over: color)
        }
        return image
    }
}

extension Bitmap {
    /// Each pixel composited over `color` (Porter-Duff source over, straight alpha, rounded).
    mutating func composite(over color: RGBAColor) {
        let under = [color.red, color.green, color.blue].map(UInt32.init)
        let underAlpha = UInt32(color.alpha)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for offset in stride(from: 0, to: buffer.count, by: 4) {
                let alpha = UInt32(buffer[offset + 3])
                guard alpha < 255 else { continue }
                // In units of 255 x 255: the pixel's own share plus the colour's share under it.
                let outAlpha = alpha * 255 + underAlpha * (255 - alpha)
                guard outAlpha > 0 else { continue }
                for channel in 0..<3 {
                    let value = UInt32(buffer[offset + channel]) * alpha * 255 + under[channel] * underAlpha * (255 - alpha)
                    buffer[offset + channel] = UInt8((value + outAlpha / 2) / outAlpha)
                }
                buffer[offset + 3] = UInt8((outAlpha + 127) / 255)
            }
        }
    }
}
