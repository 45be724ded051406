import Foundation
import ImgCache

/// The structural similarity index (Wang, Bovik, Sheikh and Simoncelli, 2004) of two pictures of
/// one size, over their luma (BT.601) after compositing on white (as a JPEG flattens them): an
/// 11-tap Gaussian window of sigma 1.5, constants (0.01 x 255)^2 and (0.03 x 255)^2, averaged over
/// every window inside the picture. 1 for identical pictures.
enum SSIM {
    static func of(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.size == b.size, "\(a.size) vs \(b.size)")
        let x = luma(a), y = luma(b)
        let width = a.width, height = a.height
        let blurred = [x, y, zip(x, x).map(*), zip(y, y).map(*), zip(x, y).map(*)].map { blur($0, width: width, height: height) }
        let c1 = 6.5025, c2 = 58.5225
        var total = 0.0
        for index in blurred[0].indices {
            let mx = blurred[0][index], my = blurred[1][index]
            let vx = blurred[2][index] - mx * mx, vy = blurred[3][index] - my * my, cov = blurred[4][index] - mx * my
            total += (2 * mx * my + c1) * (2 * cov + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2))
        }
        return blurred[0].isEmpty ? 1 : total / Double(blurred[0].count)
    }

    private static let window: [Double] = {
        let taps = (-5...5).map { exp(-Double($0 * $0) / (2 * 1.5 * 1.5)) }
        let sum = taps.reduce(0, +)
        return taps.map { $0 / sum }
    }()

    /// Luma of every pixel over white.
    private static func luma(_ bitmap: Bitmap) -> [Double] {
        stride(from: 0, to: bitmap.pixels.count, by: 4).map { offset in
            let alpha = Double(bitmap.pixels[offset + 3]) / 255
            func channel(_ index: Int) -> Double { Double(bitmap.pixels[offset + index]) * alpha + 255 * (1 - alpha) }
            return 0.299 * channel(0) + 0.587 * channel(1) + 0.114 * channel(2)
        }
    }

    /// `plane` filtered by the window along both axes, the windows that fit inside only.
    private static func blur(_ plane: [Double], width: Int, height: Int) -> [Double] {
        let taps = window.count
        guard width >= taps, height >= taps else { return [] }
        let outWidth = width - taps + 1, outHeight = height - taps + 1
        var rows = [Double](repeating: 0, count: outWidth * height)
        for y in 0..<height {
            for x in 0..<outWidth {
                var sum = 0.0
                for tap in 0..<taps { sum += window[tap] * plane[y * width + x + tap] }
                rows[y * outWidth + x] = sum
            }
        }
        var result = [Double](repeating: 0, count: outWidth * outHeight)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                var sum = 0.0
                for tap in 0..<taps { sum += window[tap] * rows[(y + tap) * outWidth + x] }
                result[y * outWidth + x] = sum
            }
        }
        return result
    }
}
