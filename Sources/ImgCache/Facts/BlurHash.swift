import Foundation

/// BlurHash (Wolt's placeholder string): the image's colours as a few cosine components over
/// linear light, quantised and written in base 83. The arithmetic follows the reference encoder
/// (PyPI `blurhash`) step for step, so that the same pixels give the same string.
public enum BlurHash {
    /// Component counts each way: 1...9.
    public static let componentRange = 1...9
    /// The default components: 4 across, 3 down.
    public static let defaultComponents = (x: 4, y: 3)

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    /// The BlurHash of `bitmap`'s red, green and blue (alpha is not read) with `componentsX` x
    /// `componentsY` components (default 4 x 3). Every pixel is read: hand a small image (the facts
    /// use one of at most 100 x 100).
    /// - Throws: `invalidArgument` for a component count outside 1...9.
    public static func encode(_ bitmap: Bitmap, componentsX: Int = 4, componentsY: Int = 3) throws -> String {
        guard componentRange.contains(componentsX), componentRange.contains(componentsY) else {
            throw ImgCacheError.invalidArgument("BlurHash components \(componentsX)x\(componentsY) are not in 1...9 each way")
        }
        let (width, height) = (Double(bitmap.width), Double(bitmap.height))
        let cosX = (0..<componentsX).map { i in (0..<bitmap.width).map { x in cos(Double.pi * Double(i) * Double(x) / width) } }
        let cosY = (0..<componentsY).map { j in (0..<bitmap.height).map { y in cos(Double.pi * Double(j) * Double(y) / height) } }
        var components: [SIMD3<Double>] = []
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for j in 0..<componentsY {
                for i in 0..<componentsX {
                    let norm: Double = i == 0 && j == 0 ? 1 : 2
                    var sum = SIMD3<Double>()
                    for y in 0..<bitmap.height {
                        var offset = y * bitmap.width * 4
                        for x in 0..<bitmap.width {
                            let basis = norm * cosX[i][x] * cosY[j][y]
                            sum.x += basis * SRGB.linear[Int(pixels[offset])]
                            sum.y += basis * SRGB.linear[Int(pixels[offset + 1])]
                            sum.z += basis * SRGB.linear[Int(pixels[offset + 2])]
                            offset += 4
                        }
                    }
                    components.append(sum / (width * height))
                }
            }
        }
        let maxAC = components.dropFirst().reduce(0.0) { max($0, abs($1.x), abs($1.y), abs($1.z)) }
        let quantisedMax = Int(max(0, min(82, (maxAC * 166 - 0.5).rounded(.down))))
        let acNorm = Double(quantisedMax + 1) / 166.0
        let dc = components[0]
        var hash = base83((componentsX - 1) + (componentsY - 1) * 9, length: 1) + base83(quantisedMax, length: 1)
        hash += base83(
            (SRGB.byte(ofLinear: dc.x) << 16) + (SRGB.byte(ofLinear: dc.y) << 8) + SRGB.byte(ofLinear: dc.z), length: 4)
        for ac in components.dropFirst() {
            func quantised(_ value: Double) -> Int {
                // The reference's sign-preserving power, pow rather than a square root to round alike.
                let signed = copysign(pow(abs(value / acNorm), 0.5), value / acNorm)
                return Int(max(0.0, min(18.0, (signed * 9.0 + 9.5).rounded(.down))))
            }
            hash += base83(quantised(ac.x) * 19 * 19 + quantised(ac.y) * 19 + quantised(ac.z), length: 2)
        }
        return hash
    }

    /// `value` in `length` base-83 digits, most significant first.
    private static func base83(_ value: Int, length: Int) -> String {
        var digits: [Character] = []
        var divisor = 1
        for _ in 1..<max(1, length) { divisor *= 83 }
        for _ in 0..<length {
            digits.append(alphabet[(value / divisor) % 83])
            divisor /= 83
        }
        return String(digits)
    }
}
