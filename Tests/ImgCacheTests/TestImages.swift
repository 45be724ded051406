import Foundation
@testable import ImgCache

/// Deterministic test pictures: smooth gradients, stripes, hard edges, noise and varied alpha,
/// which together exercise a resampler the way photographs and UI art do.
enum TestImages {
    static func scene(width: Int, height: Int, translucent: Bool = false, seed: UInt64 = 1) -> Bitmap {
        var random = SplitMix64(seed: seed)
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

/// A small, fast, reproducible pseudo-random generator.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Peak signal-to-noise ratio in dB over all four channels (infinity when identical).
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var sum = 0.0
    for index in 0..<a.count {
        let d = Double(a[index]) - Double(b[index])
        sum += d * d
    }
    if sum == 0 { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(a.count)))
}
