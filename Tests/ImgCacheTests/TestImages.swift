import Foundation
import TestSupport
@testable import ImgCache

/// Deterministic test pictures: smooth gradients, stripes, hard edges, noise and varied alpha,
/// which together exercise a resampler the way photographs and UI art do.
enum TestImages {
    static func scene(width: Int, height: Int, translucent: Bool = false, seed: UInt64 = 1) -> Bitmap {
        var random = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(width), v = Double(y) / Double(height)
                var r = 255 * u, g = 255 * v, b = 128 + 100 * sin(12 * u + 7 * v)
                if (x / 37 + y / 23) % 5 == 0 { r = 250; g = 30; b = 40 } // hard-edged tiles
                let noise = Double(random.next() % 25) - 12
                r += noise; g += noise; b -= noise
                let i = (y * width + x) * 4
                pixels[i] = UInt8(max(0, min(255, r)))
                pixels[i + 1] = UInt8(max(0, min(255, g)))
                pixels[i + 2] = UInt8(max(0, min(255, b)))
                pixels[i + 3] = translucent ? UInt8(max(0, min(255, 255 * (0.5 + 0.5 * cos(9 * u * v))))) : 255
            }
        }
        return Bitmap(unchecked: PixelSize(width: width, height: height), pixels: pixels)
    }

    /// Writes `bitmap` as a PNG in a fresh temporary folder and returns its path.
    static func pngFile(_ bitmap: Bitmap, name: String = "scene.png") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try PNGEncoder.encode(bitmap).write(to: url)
        return url.path
    }
}
