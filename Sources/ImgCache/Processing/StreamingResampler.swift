/// A streaming, separable area filter (a box with fractional coverage) on premultiplied RGBA.
///
/// Rows of straight-alpha RGBA8 are pushed top to bottom; each is added, weighed by the share of
/// the output row it covers, into a single accumulator row at the input's width, and when an output
/// row is complete the accumulator is reduced horizontally into it. Each input pixel is thus read
/// once and each output pixel computed once. Working memory is two rows of the input width plus
/// the output, whatever the input height. Each output pixel is the coverage-weighted mean of the
/// input pixels under it, computed on premultiplied values and returned with straight alpha.
/// A whole-pixel region at its own size (the whole input, or a crop) is copied byte for byte.
struct StreamingResampler {
    let inputSize: PixelSize
    let outputSize: PixelSize
    private let horizontalTaps: ResamplingTaps
    /// The input pixel of the output's top-left corner when the output is a whole-pixel region of
    /// the input at 1:1, whose rows are copied; nil when they are filtered.
    private let copyOrigin: (x: Int, y: Int)?
    /// Every input pixel is opaque: rows are added as they are, without multiplying alpha in.
    private let inputIsOpaque: Bool
    private let regionTop: Double
    private let rowsPerOutputRow: Double
    /// The current input row as premultiplied floats (translucent input only).
    private var premultipliedRow: [Float]
    /// The input rows under the current output row, premultiplied, each weighed by the share of
    /// the output row it covers: 4 floats a pixel over the columns the taps read.
    private var accumulator: [Float]
    private var accumulatedWeight: Double = 0
    private var nextInputRow = 0
    private var nextOutputRow = 0
    private(set) var output: Bitmap

    /// Prepares to resample an input of `inputSize` as planned by `geometry`.
    ///
    /// The input may be a uniformly reduced version of `geometry.sourceSize` (a JPEG decoded at 1/4,
    /// say): the source region is scaled by `inputSize / geometry.sourceSize` on each axis.
    /// `inputIsOpaque` promises that every pixel pushed has alpha 255.
    init(inputSize: PixelSize, geometry: ResizeGeometry, inputIsOpaque: Bool = false) {
        self.inputSize = inputSize
        self.inputIsOpaque = inputIsOpaque
        self.outputSize = geometry.outputSize
        let factorX = Double(inputSize.width) / Double(geometry.sourceSize.width)
        let factorY = Double(inputSize.height) / Double(geometry.sourceSize.height)
        copyOrigin = Self.copyOrigin(inputSize: inputSize, geometry: geometry)
        horizontalTaps = ResamplingTaps(
            inputLength: inputSize.width, start: geometry.sourceX * factorX,
            length: geometry.sourceWidth * factorX, outputLength: outputSize.width)
        regionTop = geometry.sourceY * factorY
        rowsPerOutputRow = geometry.sourceHeight * factorY / Double(outputSize.height)
        let rowFloats = copyOrigin != nil ? 0 : inputSize.width * 4
        premultipliedRow = [Float](repeating: 0, count: inputIsOpaque ? 0 : rowFloats)
        accumulator = [Float](repeating: 0, count: rowFloats)
        output = Bitmap(size: outputSize)
    }

    /// Where the output starts in the input when it is a whole-pixel region of it at 1:1.
    private static func copyOrigin(inputSize: PixelSize, geometry: ResizeGeometry) -> (x: Int, y: Int)? {
        guard inputSize == geometry.sourceSize, geometry.sourceWidth == Double(geometry.outputSize.width),
              geometry.sourceHeight == Double(geometry.outputSize.height),
              geometry.sourceX == geometry.sourceX.rounded(), geometry.sourceY == geometry.sourceY.rounded()
        else { return nil }
        return (Int(geometry.sourceX), Int(geometry.sourceY))
    }

    /// True once every output row is complete; later input rows would be ignored.
    var isComplete: Bool { nextOutputRow >= outputSize.height }

    /// Input columns the output reads: the rest of each row may be left out of what is pushed.
    var inputColumnsNeeded: Range<Int> {
        if let copyOrigin { return copyOrigin.x..<copyOrigin.x + outputSize.width }
        return horizontalTaps.inputRange
    }

    /// The first input row the output reads: the rows above it may be skipped (`skip(rows:)`).
    var firstInputRowNeeded: Int {
        if let copyOrigin { return copyOrigin.y }
        return max(0, Int(regionTop.rounded(.down)))
    }

    /// Counts `count` rows as pushed without reading them; they must lie above
    /// `firstInputRowNeeded`.
    mutating func skip(rows count: Int) {
        precondition(nextInputRow + count <= firstInputRowNeeded, "skipped rows the output reads")
        nextInputRow += count
    }

    /// Input rows the output needs: rows from this index on are never used.
    var inputRowsNeeded: Int {
        if let copyOrigin { return copyOrigin.y + outputSize.height }
        let bottom = regionTop + rowsPerOutputRow * Double(outputSize.height)
        return min(inputSize.height, Int((bottom - 1e-9).rounded(.up)))
    }

    /// Pushes the next input row of straight-alpha RGBA8: its columns from `firstColumn` on, at
    /// least up to the end of `inputColumnsNeeded` (4 bytes each).
    mutating func push(row: UnsafePointer<UInt8>, firstColumn: Int = 0) {
        defer { nextInputRow += 1 }
        guard !isComplete else { return }
        if let copyOrigin {
            guard nextInputRow >= copyOrigin.y else { return }
            let rowBytes = outputSize.width * 4
            output.pixels.withUnsafeMutableBufferPointer { pixels in
                (pixels.baseAddress! + nextOutputRow * rowBytes).update(from: row + (copyOrigin.x - firstColumn) * 4, count: rowBytes)
            }
            nextOutputRow += 1
            return
        }
        let top = Double(nextInputRow), bottom = top + 1
        guard bottom > rowStart(nextOutputRow) else { return }
        if !inputIsOpaque { premultiply(row, firstColumn: firstColumn) }
        while !isComplete {
            let start = rowStart(nextOutputRow), end = rowEnd(nextOutputRow)
            let overlap = min(end, bottom) - max(start, top)
            if overlap > 0 { accumulate(row, firstColumn: firstColumn, weight: overlap) }
            guard end <= bottom + 1e-9 else { break }
            emitRow()
        }
    }

    /// Completes any output rows the input did not reach (a truncated image) and returns the result.
    /// Rows that received some input are normalised by what they received; rows that received none
    /// stay transparent.
    mutating func finish() -> Bitmap {
        while !isComplete {
            if copyOrigin != nil { nextOutputRow = outputSize.height } else { emitRow() }
        }
        return output
    }

    private func rowStart(_ row: Int) -> Double { regionTop + Double(row) * rowsPerOutputRow }
    private func rowEnd(_ row: Int) -> Double {
        row == outputSize.height - 1
            ? regionTop + Double(outputSize.height) * rowsPerOutputRow
            : rowStart(row + 1)
    }

    /// The floats of the columns the taps read.
    private var columnFloats: Range<Int> {
        horizontalTaps.inputRange.lowerBound * 4..<horizontalTaps.inputRange.upperBound * 4
    }

    /// Converts `row` (starting at `firstColumn`) to premultiplied floats `(R x A, G x A, B x A, A)`
    /// in `premultipliedRow`.
    private mutating func premultiply(_ row: UnsafePointer<UInt8>, firstColumn: Int) {
        let columns = horizontalTaps.inputRange
        premultipliedRow.withUnsafeMutableBufferPointer { floats in
            floats.withMemoryRebound(to: SIMD4<Float>.self) { pixels in
                for x in columns {
                    let pixel = row + (x - firstColumn) * 4
                    let alpha = Float(pixel[3])
                    pixels[x] = SIMD4(Float(pixel[0]) * alpha, Float(pixel[1]) * alpha, Float(pixel[2]) * alpha, alpha)
                }
            }
        }
    }

    /// Adds the current row (starting at `firstColumn`), times `weight`, into the accumulator: the
    /// bytes as they are when the input is opaque (alpha then sums to 255 x weight), else the
    /// premultiplied row.
    private mutating func accumulate(_ row: UnsafePointer<UInt8>, firstColumn: Int, weight: Double) {
        let w = Float(weight)
        let range = columnFloats
        // The bytes of the first column read, in the pushed row.
        let bytes = row + (range.lowerBound - firstColumn * 4)
        accumulatedWeight += weight
        accumulator.withUnsafeMutableBufferPointer { sums in
            guard let sum = sums.baseAddress.map({ $0 + range.lowerBound }) else { return }
            if inputIsOpaque {
                for index in 0..<range.count { sum[index] += w * Float(bytes[index]) }
            } else {
                premultipliedRow.withUnsafeBufferPointer { floats in
                    guard let premultiplied = floats.baseAddress.map({ $0 + range.lowerBound }) else { return }
                    for index in 0..<range.count { sum[index] += w * premultiplied[index] }
                }
            }
        }
    }

    /// Reduces the accumulator horizontally into the next output row, as straight-alpha RGBA8,
    /// and clears it.
    private mutating func emitRow() {
        let alphaScale = accumulatedWeight > 0 ? Float(1 / accumulatedWeight) : 0
        let rowOffset = nextOutputRow * outputSize.width * 4
        let isOpaque = inputIsOpaque
        let taps = horizontalTaps
        let range = columnFloats
        accumulator.withUnsafeMutableBufferPointer { sums in
            output.pixels.withUnsafeMutableBytes { pixels in
                let row = pixels.baseAddress! + rowOffset
                sums.withMemoryRebound(to: SIMD4<Float>.self) { input in
                    taps.reduce(input.baseAddress!) { x, sum in
                        if isOpaque {
                            // Each column's weights sum to 1; so do the rows' once scaled.
                            Self.store(sum * alphaScale, at: row + x * 4)
                        } else {
                            let alpha = sum[3]
                            var straight = SIMD4<Float>()
                            if alpha > 0 {
                                straight = sum * (1 / alpha)
                                straight[3] = alpha * alphaScale
                            }
                            Self.store(straight, at: row + x * 4)
                        }
                    }
                }
            }
            for index in range { sums[index] = 0 }
        }
        accumulatedWeight = 0
        nextOutputRow += 1
    }

    /// Stores `value`'s four lanes, clamped to 0...255 and rounded to the nearest whole number, as
    /// four bytes.
    @inline(__always)
    private static func store(_ value: SIMD4<Float>, at pointer: UnsafeMutableRawPointer) {
        let packed = byte(value[0]) | byte(value[1]) << 8 | byte(value[2]) << 16 | byte(value[3]) << 24
        pointer.storeBytes(of: packed.littleEndian, as: UInt32.self)
    }

    /// Adding 1.5 x 2^23 leaves the rounded value in the low mantissa bits: no conversion check needed.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt32 {
        (min(max(value, 0), 255) + 12_582_912).bitPattern & 0xFF
    }
}
