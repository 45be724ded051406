import CPNG
import Foundation

/// Encodes a bitmap as an 8-bit PNG: RGB when every pixel is opaque, RGBA otherwise.
public enum PNGEncoder {
    /// zlib level used when none is given: 6, zlib's own balance of size and speed.
    public static let defaultCompressionLevel = 6

    public static func encode(_ bitmap: Bitmap, compressionLevel: Int = defaultCompressionLevel) throws -> Data {
        guard (0...9).contains(compressionLevel) else {
            throw ImgCacheError.invalidArgument("PNG compression level \(compressionLevel) is not in 0...9")
        }
        let opaque = bitmap.isOpaque
        let pixels = opaque ? bitmap.rgbBytes() : bitmap.pixels
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeBufferPointer { pixels in
            imgpng_encode(
                pixels.baseAddress, UInt32(bitmap.width), UInt32(bitmap.height), opaque ? 3 : 4,
                Int32(compressionLevel), &output, &outputSize, &message, message.count)
        }
        return try EncodedBuffer.take(output, count: outputSize, status: status, message: message, format: .png)
    }
}

extension Bitmap {
    /// The pixels without their alpha bytes: 3 bytes a pixel.
    func rgbBytes() -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: size.area * 3)
        pixels.withUnsafeBufferPointer { rgba in
            rgb.withUnsafeMutableBufferPointer { rgb in
                for index in 0..<size.area {
                    rgb[index * 3] = rgba[index * 4]
                    rgb[index * 3 + 1] = rgba[index * 4 + 1]
                    rgb[index * 3 + 2] = rgba[index * 4 + 2]
                }
            }
        }
        return rgb
    }
}
