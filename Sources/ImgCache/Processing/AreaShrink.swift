/// Shrinking a bitmap by area, for the previews that analyses read (attention, image facts).
enum AreaShrink {
    /// `image` shrunk to `size` by area (each cell the mean of the pixels it covers, a cell
    /// spreading over several when the image is smaller), red, green and blue premultiplied by
    /// alpha, all 0...255; cells row by row.
    static func premultiplied(_ image: Bitmap, to size: PixelSize) -> [SIMD4<Float>] {
        let (width, height) = (image.width, image.height)
        let across = ResamplingTaps(inputLength: width, start: 0, length: Double(width), outputLength: size.width)
        let down = ResamplingTaps(inputLength: height, start: 0, length: Double(height), outputLength: size.height)
        // Rows shrunk across, stored column by column so that each column can shrink next.
        var columns = [SIMD4<Float>](repeating: .zero, count: size.width * height)
        var row = [SIMD4<Float>](repeating: .zero, count: width)
        var cells = [SIMD4<Float>](repeating: .zero, count: size.area)
        image.pixels.withUnsafeBufferPointer { pixels in
            row.withUnsafeMutableBufferPointer { row in
                columns.withUnsafeMutableBufferPointer { columns in
                    guard let rowStart = row.baseAddress else { return }
                    for y in 0..<height {
                        var offset = y * width * 4
                        for x in 0..<width {
                            let rgba = SIMD4<Float>(
                                Float(pixels[offset]), Float(pixels[offset + 1]), Float(pixels[offset + 2]), Float(pixels[offset + 3]))
                            row[x] = rgba * SIMD4(rgba.w / 255, rgba.w / 255, rgba.w / 255, 1)
                            offset += 4
                        }
                        across.reduce(UnsafePointer(rowStart)) { column, value in columns[column * height + y] = value }
                    }
                }
            }
        }
        columns.withUnsafeBufferPointer { columns in
            cells.withUnsafeMutableBufferPointer { cells in
                guard let start = columns.baseAddress else { return }
                for x in 0..<size.width {
                    down.reduce(start + x * height) { y, value in cells[y * size.width + x] = value }
                }
            }
        }
        return cells
    }
}
