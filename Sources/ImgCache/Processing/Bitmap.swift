/// An RGBA8 image: 4 bytes a pixel (red, green, blue, alpha), straight (not premultiplied) alpha,
/// rows top to bottom with no padding.
public struct Bitmap: Sendable, Equatable {
    /// Width and height in pixels, each at least 1.
    public let size: PixelSize
    /// `size.area x 4` bytes.
    public internal(set) var pixels: [UInt8]

    /// Wraps `pixels`; its count must be `size.area x 4`.
    public init(size: PixelSize, pixels: [UInt8]) throws {
        guard size.width > 0, size.height > 0, pixels.count == size.area * 4 else {
            throw ImgCacheError.invalidArgument(
                "a \(size) bitmap needs \(max(0, size.area) * 4) bytes, got \(pixels.count)")
        }
        self.size = size
        self.pixels = pixels
    }

    /// A transparent black bitmap.
    init(size: PixelSize) {
        self.size = size
        self.pixels = [UInt8](repeating: 0, count: size.area * 4)
    }

    init(unchecked size: PixelSize, pixels: [UInt8]) {
        self.size = size
        self.pixels = pixels
    }

    /// Width in pixels.
    public var width: Int { size.width }
    /// Height in pixels.
    public var height: Int { size.height }
    /// Bytes the pixels take: `width x height x 4`.
    public var byteCount: Int { pixels.count }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var index = 3
            while index < buffer.count {
                if buffer[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }
}
