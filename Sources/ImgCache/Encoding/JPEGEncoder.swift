import CJPEG
import Foundation

/// Encodes a bitmap as a JPEG with optimised Huffman tables: baseline or progressive, chroma at
/// 4:2:0 or 4:4:4. JPEG has no alpha: translucent pixels are composited over `background` first.
public enum JPEGEncoder {
    /// Quality used when none is given: 85.
    public static let defaultQuality = 85

    /// Encodes `bitmap` (its RGBA pixels) as a JPEG file's bytes.
    ///
    /// - Parameters:
    ///   - bitmap: the pixels to encode.
    ///   - quality: 1 (smallest) to 100 (best). Default 85.
    ///   - background: colour under translucent pixels, as RGB. Default white.
    ///   - iccProfile: an RGB ICC profile to embed in APP2 segments (at most
    ///     `ColorProfile.maxByteCount` bytes), as `ColorPolicy.keep` asks. Default nil: none.
    ///   - progressive: true writes a progressive JPEG (SOF2; libjpeg's standard scan script, a
    ///     coarse image first), false a baseline one (SOF0). Default false.
    ///   - chroma: `.yuv420` (the default) or `.yuv444`.
    public static func encode(
        _ bitmap: Bitmap, quality: Int = defaultQuality, background: (UInt8, UInt8, UInt8) = (255, 255, 255),
        iccProfile: [UInt8]? = nil, progressive: Bool = false, chroma: ChromaSubsampling = .yuv420
    ) throws -> Data {
        guard (1...100).contains(quality) else {
            throw ImgCacheError.invalidArgument("JPEG quality \(quality) is not in 1...100")
        }
        if let iccProfile, iccProfile.isEmpty || iccProfile.count > ColorProfile.maxByteCount {
            throw ImgCacheError.invalidArgument("an ICC profile of \(iccProfile.count) bytes is not in 1...\(ColorProfile.maxByteCount)")
        }
        // Opaque pixels go to libjpeg as RGBA (it skips the alpha byte); others are flattened first.
        let opaque = bitmap.isOpaque
        let pixels = opaque ? bitmap.pixels : bitmap.flattened(over: background)
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeBufferPointer { pixels in
            (iccProfile ?? []).withUnsafeBufferPointer { icc in
                imgjpeg_encode(
                    pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), opaque ? 4 : 3, Int32(quality), progressive ? 1 : 0,
                    chroma == .yuv444 ? 1 : 0,
                    iccProfile == nil ? nil : icc.baseAddress, icc.count, &output, &outputSize, &message, message.count)
            }
        }
        return try EncodedBuffer.take(output, count: Int(outputSize), status: status, message: message, format: .jpeg)
    }
}

extension Bitmap {
    /// RGB bytes of the pixels composited over an opaque background colour.
    func flattened(over background: (UInt8, UInt8, UInt8)) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: size.area * 3)
        let under = [UInt32(background.0), UInt32(background.1), UInt32(background.2)]
        pixels.withUnsafeBufferPointer { rgba in
            for index in 0..<size.area {
                let alpha = UInt32(rgba[index * 4 + 3])
                for channel in 0..<3 {
                    let value = UInt32(rgba[index * 4 + channel]) * alpha + under[channel] * (255 - alpha)
                    rgb[index * 3 + channel] = UInt8((value + 127) / 255)
                }
            }
        }
        return rgb
    }
}
