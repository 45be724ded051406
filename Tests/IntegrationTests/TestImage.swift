import Foundation
import ImgCache

/// A small real JPEG for the servers to serve.
enum TestImage {
    static func jpeg(width: Int = 64, height: Int = 48, seed: UInt8 = 0) throws -> Data {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 255 / width), UInt8(y * 255 / height), seed, 255]
            }
        }
        return try JPEGEncoder.encode(Bitmap(size: PixelSize(width: width, height: height), pixels: pixels))
    }
}
