/// Shrinking a bitmap by area, for the previews that analyses read (attention, image facts).
enum AreaShrink {
    /// `image` shrunk to `size` by area (each cell the mean of the pixels it covers, a cell
    /// spreading over several when the image is smaller), red, green and blue premultiplied by
    /// alpha, all 0...255; cells row by row. Each output row sums its input rows first (one
    /// multiply-add a pixel), then shrinks that sum across.
    static func premultiplied(_ image: Bitmap, to size: PixelSize) -> [SIMD4<Float>] {
        let width = image.width
        let across = ResamplingTaps(inputLength: width, start: 0, length: Double(width), outputLength: size.width)
        let down = ResamplingTaps(inputLength: image.height, start: 0, length: Double(image.height), outputLength: size.height)
        var sum = [SIMD4<Float>](repeating: .zero, count: width)
        var cells = [SIMD4<Float>](repeating: .zero, count: size.area)
        image.pixels.withUnsafeBytes { pixels in
            sum.withUnsafeMutableBufferPointer { sum in
                cells.withUnsafeMutableBufferPointer { cells in
                    guard let sumStart = sum.baseAddress else { return }
                    for outputRow in 0..<size.height {
                        for x in 0..<width { sum[x] = .zero }
                        down.forEachTap(of: outputRow) { row, weight in
                            var offset = row * width * 4
                            let perAlpha = weight / 255
                            for x in 0..<width {
                                let rgba = SIMD4<Float>(pixels.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
                                let factor = rgba.w * perAlpha
                                sum[x] += rgba * SIMD4(factor, factor, factor, weight)
                                offset += 4
                            }
                        }
                        across.reduce(UnsafePointer(sumStart)) { column, value in cells[outputRow * size.width + column] = value }
                    }
                }
            }
        }
        return cells
    }
}
