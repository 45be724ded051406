import Foundation
import ImgCache

/// Peak signal-to-noise ratio, in dB, of the tests' image comparisons (infinity when equal).
public enum PSNR {
    /// Over every byte of two equally long buffers (all four channels of RGBA).
    public static func of(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var squares = 0.0
        for index in 0..<a.count {
            let difference = Double(a[index]) - Double(b[index])
            squares += difference * difference
        }
        return decibels(squares: squares, samples: a.count)
    }

    /// Over the RGB of the pixels `original` shows opaque (alpha >= 128), as a GIF keeps them.
    public static func opaqueRGB(_ original: Bitmap, _ copy: Bitmap) -> Double {
        var squares = 0.0, samples = 0
        for offset in stride(from: 0, to: original.pixels.count, by: 4) where original.pixels[offset + 3] >= 128 {
            for channel in 0..<3 {
                let difference = Double(original.pixels[offset + channel]) - Double(copy.pixels[offset + channel])
                squares += difference * difference
                samples += 1
            }
        }
        return decibels(squares: squares, samples: samples)
    }

    /// Straight RGBA8 `pixels` premultiplied, rounded as Pillow's "RGBa" rounds: what the tests
    /// compare translucent images in.
    public static func premultiplied(_ pixels: [UInt8]) -> [UInt8] {
        var result = pixels
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Int(pixels[index + 3])
            for channel in 0..<3 { result[index + channel] = UInt8((Int(pixels[index + channel]) * alpha + 127) / 255) }
        }
        return result
    }

    private static func decibels(squares: Double, samples: Int) -> Double {
        guard samples > 0, squares > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (squares / Double(samples)))
    }
}
