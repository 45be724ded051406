import Foundation

/// ThumbHash (Evan Wallace's placeholder bytes): the image's luminance, two colour-difference
/// channels and, for a translucent image, its alpha as cosine components, with the aspect ratio,
/// in about 25 bytes. The arithmetic follows the reference encoder (PyPI `thumbhash`, a port of
/// the original) step for step, rounding halves to even as it does, so that the same opaque
/// pixels give the same bytes; a translucent image is encoded as the original's algorithm says
/// (the Python port fails on one).
public enum ThumbHash {
    /// The largest side the encoder takes.
    public static let maxSide = 100

    /// The ThumbHash of `bitmap`.
    /// - Throws: `invalidArgument` when a side is over 100 pixels (shrink the image first; the
    ///   facts do).
    public static func encode(_ bitmap: Bitmap) throws -> [UInt8] {
        let (w, h) = (bitmap.width, bitmap.height)
        guard w <= maxSide, h <= maxSide else {
            throw ImgCacheError.invalidArgument("a ThumbHash is made of at most 100x100 pixels, not \(bitmap.size)")
        }
        let pixels = bitmap.pixels
        var (averageR, averageG, averageB, averageA) = (0.0, 0.0, 0.0, 0.0)
        for index in 0..<(w * h) {
            let alpha = Double(pixels[index * 4 + 3]) / 255
            averageR += alpha / 255 * Double(pixels[index * 4])
            averageG += alpha / 255 * Double(pixels[index * 4 + 1])
            averageB += alpha / 255 * Double(pixels[index * 4 + 2])
            averageA += alpha
        }
        if averageA > 0 {
            averageR /= averageA
            averageG /= averageA
            averageB /= averageA
        }
        let hasAlpha = averageA < Double(w * h)
        let lLimit = hasAlpha ? 5.0 : 7.0
        let lx = max(1, Self.round(lLimit * Double(w) / Double(max(w, h))))
        let ly = max(1, Self.round(lLimit * Double(h) / Double(max(w, h))))
        var (l, p, q, a) = ([Double](), [Double](), [Double](), [Double]())
        for index in 0..<(w * h) {
            let alpha = Double(pixels[index * 4 + 3]) / 255
            let r = averageR * (1 - alpha) + alpha / 255 * Double(pixels[index * 4])
            let g = averageG * (1 - alpha) + alpha / 255 * Double(pixels[index * 4 + 1])
            let b = averageB * (1 - alpha) + alpha / 255 * Double(pixels[index * 4 + 2])
            l.append((r + g + b) / 3)
            p.append((r + g) / 2 - b)
            q.append(r - g)
            a.append(alpha)
        }
        let size = (w, h)
        let luminance = channel(l, size, nx: max(3, lx), ny: max(3, ly))
        let pChannel = channel(p, size, nx: 3, ny: 3)
        let qChannel = channel(q, size, nx: 3, ny: 3)
        let isLandscape = w > h
        let header24 = Self.round(63 * luminance.dc) | Self.round(31.5 + 31.5 * pChannel.dc) << 6
            | Self.round(31.5 + 31.5 * qChannel.dc) << 12 | Self.round(31 * luminance.scale) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 = (isLandscape ? ly : lx) | Self.round(63 * pChannel.scale) << 3 | Self.round(63 * qChannel.scale) << 9
            | (isLandscape ? 1 << 15 : 0)
        var hash: [UInt8] = [
            UInt8(header24 & 255), UInt8(header24 >> 8 & 255), UInt8(header24 >> 16), UInt8(header16 & 255), UInt8(header16 >> 8),
        ]
        var acs = [luminance.ac, pChannel.ac, qChannel.ac]
        if hasAlpha {
            let alphaChannel = channel(a, size, nx: 5, ny: 5)
            hash.append(UInt8(Self.round(15 * alphaChannel.dc) | Self.round(15 * alphaChannel.scale) << 4))
            acs.append(alphaChannel.ac)
        }
        var isOdd = false
        for f in acs.joined() {
            let nibble = UInt8(Self.round(15 * f) & 15)
            if isOdd { hash[hash.count - 1] |= nibble << 4 } else { hash.append(nibble) }
            isOdd.toggle()
        }
        return hash
    }

    /// The cosine components of one channel: its DC, its AC terms scaled to 0...1 (in the
    /// reference's triangular order) and their largest magnitude. Four components of a row of the
    /// triangle are summed at once, one to a SIMD lane, each lane in the reference's order (pixel
    /// by pixel along rows, `value x fx x fy` added to the sum), so that each rounds as the
    /// reference's does.
    private static func channel(_ values: [Double], _ size: (w: Int, h: Int), nx: Int, ny: Int)
        -> (dc: Double, ac: [Double], scale: Double)
    {
        let (w, h) = size
        var (dc, ac, scale) = (0.0, [Double](), 0.0)
        var fy = [Double](repeating: 0, count: h)
        var fx = [SIMD4<Double>](repeating: .zero, count: w)
        for cy in 0..<ny {
            for y in 0..<h { fy[y] = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5)) }
            var count = 0
            while count * ny < nx * (ny - cy) { count += 1 }
            for first in stride(from: 0, to: count, by: 4) {
                let lanes = min(4, count - first)
                for x in 0..<w {
                    var lane = SIMD4<Double>()
                    for index in 0..<lanes {
                        lane[index] = cos(Double.pi / Double(w) * Double(first + index) * (Double(x) + 0.5))
                    }
                    fx[x] = lane
                }
                let sums = values.withUnsafeBufferPointer { values in
                    fx.withUnsafeBufferPointer { fx in
                        var sum = SIMD4<Double>()
                        for y in 0..<h {
                            let row = y * w, rowFactor = fy[y]
                            for x in 0..<w { sum += SIMD4(repeating: values[row + x]) * fx[x] * rowFactor }
                        }
                        return sum
                    }
                }
                for index in 0..<lanes {
                    let f = sums[index] / Double(w * h)
                    if first + index > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                }
            }
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }

    /// `value` rounded to the nearest whole number, halves to even (Python's `round`).
    private static func round(_ value: Double) -> Int {
        Int(value.rounded(.toNearestOrEven))
    }
}
