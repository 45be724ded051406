/// PNG's per-row filters (None, Sub, Up, Average, Paeth; PNG specification section 9), chosen row
/// by row by the smallest sum of absolute differences (each filtered byte read as signed), the
/// heuristic libpng and most encoders use for truecolour images.
enum PNGRowFilter {
    /// The rows of `bitmap` with `channels` bytes a pixel (3 drops alpha), each preceded by its
    /// filter type byte: the bytes PNG's image data compresses.
    static func filter(_ bitmap: Bitmap, channels: Int) -> [UInt8] {
        let width = bitmap.width, height = bitmap.height
        let rowBytes = width * channels
        var output = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        // The raw previous and current rows, and one candidate row per filter.
        var rows = [UInt8](repeating: 0, count: rowBytes * 7)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            output.withUnsafeMutableBufferPointer { output in
                rows.withUnsafeMutableBufferPointer { rows in
                    var previous = rows.baseAddress!, current = previous + rowBytes
                    let candidates = current + rowBytes
                    for y in 0..<height {
                        let source = pixels.baseAddress! + y * width * 4
                        if channels == 4 {
                            current.update(from: source, count: rowBytes)
                        } else {
                            for x in 0..<width {
                                current[x * 3] = source[x * 4]
                                current[x * 3 + 1] = source[x * 4 + 1]
                                current[x * 3 + 2] = source[x * 4 + 2]
                            }
                        }
                        let best = bestFilter(current, previous, rowBytes, channels, candidates)
                        let target = output.baseAddress! + y * (rowBytes + 1)
                        target[0] = UInt8(best)
                        (target + 1).update(from: candidates + best * rowBytes, count: rowBytes)
                        swap(&previous, &current)
                    }
                }
            }
        }
        return output
    }

    /// Writes the five filtered versions of `row` into `candidates` (one after another, by filter
    /// type) and returns the type whose bytes have the smallest sum of absolute values.
    private static func bestFilter(
        _ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int,
        _ candidates: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let none = candidates, sub = none + count, up = sub + count, average = up + count, paeth = average + count
        var sums: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
        for i in 0..<count {
            let x = row[i], b = above[i]
            let a = i >= bpp ? row[i - bpp] : 0
            let c = i >= bpp ? above[i - bpp] : 0
            none[i] = x
            sub[i] = x &- a
            up[i] = x &- b
            average[i] = x &- UInt8((UInt16(a) + UInt16(b)) / 2)
            paeth[i] = x &- predictPaeth(a, b, c)
            sums.0 += magnitude(none[i])
            sums.1 += magnitude(sub[i])
            sums.2 += magnitude(up[i])
            sums.3 += magnitude(average[i])
            sums.4 += magnitude(paeth[i])
        }
        let totals = [sums.0, sums.1, sums.2, sums.3, sums.4]
        return totals.indices.min { totals[$0] < totals[$1] }!
    }

    /// The byte read as signed, without its sign.
    @inline(__always)
    private static func magnitude(_ byte: UInt8) -> Int {
        byte < 128 ? Int(byte) : 256 - Int(byte)
    }

    /// Paeth's predictor: of left, above and upper left, the one nearest to left + above - upper left.
    @inline(__always)
    static func predictPaeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
