/// A streaming, separable area filter (a box with fractional coverage) on premultiplied RGBA.
///
/// Rows of straight-alpha RGBA8 are pushed top to bottom; each is reduced horizontally at once and
/// added into a single accumulator row, which is emitted when the output row it feeds is complete.
/// Working memory is a few rows of the output width plus one input row, whatever the input height.
/// Each output pixel is the coverage-weighted mean of the input pixels under it, computed on
/// premultiplied values and returned with straight alpha.
struct StreamingResampler {
    let inputSize: PixelSize
    let outputSize: PixelSize
    private let horizontalTaps: ResamplingTaps
    private let isIdentity: Bool
    private let regionTop: Double
    private let rowsPerOutputRow: Double
    private var horizontalRow: [Float]
    private var accumulator: [Float]
    private var accumulatedWeight: Double = 0
    private var nextInputRow = 0
    private var nextOutputRow = 0
    private(set) var output: Bitmap

    /// Prepares to resample an input of `inputSize` as planned by `geometry`.
    ///
    /// The input may be a uniformly reduced version of `geometry.sourceSize` (a JPEG decoded at 1/4,
    /// say): the source region is scaled by `inputSize / geometry.sourceSize` on each axis.
    init(inputSize: PixelSize, geometry: ResizeGeometry) {
        self.inputSize = inputSize
        self.outputSize = geometry.outputSize
        let factorX = Double(inputSize.width) / Double(geometry.sourceSize.width)
        let factorY = Double(inputSize.height) / Double(geometry.sourceSize.height)
        isIdentity = geometry.isIdentity && inputSize == geometry.sourceSize
        horizontalTaps = ResamplingTaps(
            inputLength: inputSize.width, start: geometry.sourceX * factorX,
            length: geometry.sourceWidth * factorX, outputLength: outputSize.width)
        regionTop = geometry.sourceY * factorY
        rowsPerOutputRow = geometry.sourceHeight * factorY / Double(outputSize.height)
        horizontalRow = isIdentity ? [] : [Float](repeating: 0, count: outputSize.width * 4)
        accumulator = isIdentity ? [] : [Float](repeating: 0, count: outputSize.width * 4)
        output = Bitmap(size: outputSize)
    }

    /// True once every output row is complete; later input rows would be ignored.
    var isComplete: Bool { nextOutputRow >= outputSize.height }

    /// Input rows the output needs: rows from this index on are never used.
    var inputRowsNeeded: Int {
        if isIdentity { return inputSize.height }
        let bottom = regionTop + rowsPerOutputRow * Double(outputSize.height)
        return min(inputSize.height, Int((bottom - 1e-9).rounded(.up)))
    }

    /// Pushes the next input row: `inputSize.width x 4` bytes of straight-alpha RGBA8.
    mutating func push(row: UnsafePointer<UInt8>) {
        defer { nextInputRow += 1 }
        guard !isComplete else { return }
        if isIdentity {
            let rowBytes = outputSize.width * 4
            output.pixels.withUnsafeMutableBufferPointer { pixels in
                (pixels.baseAddress! + nextOutputRow * rowBytes).update(from: row, count: rowBytes)
            }
            nextOutputRow += 1
            return
        }
        let top = Double(nextInputRow), bottom = top + 1
        guard bottom > rowStart(nextOutputRow) else { return }
        horizontalRow.withUnsafeMutableBufferPointer { reduced in
            horizontalTaps.reduce(row: row, into: reduced.baseAddress!)
        }
        while !isComplete {
            let start = rowStart(nextOutputRow), end = rowEnd(nextOutputRow)
            let overlap = min(end, bottom) - max(start, top)
            if overlap > 0 { accumulate(weight: overlap) }
            guard end <= bottom + 1e-9 else { break }
            emitRow()
        }
    }

    /// Completes any output rows the input did not reach (a truncated image) and returns the result.
    /// Rows that received some input are normalised by what they received; rows that received none
    /// stay transparent.
    mutating func finish() -> Bitmap {
        while !isComplete {
            if isIdentity { nextOutputRow = outputSize.height } else { emitRow() }
        }
        return output
    }

    private func rowStart(_ row: Int) -> Double { regionTop + Double(row) * rowsPerOutputRow }
    private func rowEnd(_ row: Int) -> Double {
        row == outputSize.height - 1
            ? regionTop + Double(outputSize.height) * rowsPerOutputRow
            : rowStart(row + 1)
    }

    private mutating func accumulate(weight: Double) {
        let w = SIMD4<Float>(repeating: Float(weight))
        let width = outputSize.width
        accumulatedWeight += weight
        horizontalRow.withUnsafeBytes { reduced in
            accumulator.withUnsafeMutableBytes { sum in
                for offset in stride(from: 0, to: width * 16, by: 16) {
                    let total = sum.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                        + w * reduced.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                    sum.storeBytes(of: total, toByteOffset: offset, as: SIMD4<Float>.self)
                }
            }
        }
    }

    /// Writes the accumulated row as straight-alpha RGBA8 and clears the accumulator.
    private mutating func emitRow() {
        let width = outputSize.width
        let alphaScale = accumulatedWeight > 0 ? Float(1 / accumulatedWeight) : 0
        let rowOffset = nextOutputRow * width * 4
        accumulator.withUnsafeMutableBytes { sum in
            output.pixels.withUnsafeMutableBytes { pixels in
                for x in 0..<width {
                    let premultiplied = sum.loadUnaligned(fromByteOffset: x * 16, as: SIMD4<Float>.self)
                    let alpha = premultiplied[3]
                    var straight = SIMD4<Float>()
                    if alpha > 0 {
                        straight = premultiplied * (1 / alpha)
                        straight[3] = alpha * alphaScale
                    }
                    // Lane by lane: SIMD4's generic Float-to-integer initialisers are slow.
                    let packed = Self.byte(straight[0]) | Self.byte(straight[1]) << 8
                        | Self.byte(straight[2]) << 16 | Self.byte(straight[3]) << 24
                    pixels.storeBytes(of: packed.littleEndian, toByteOffset: rowOffset + x * 4, as: UInt32.self)
                }
                sum.initializeMemory(as: Float.self, repeating: 0)
            }
        }
        accumulatedWeight = 0
        nextOutputRow += 1
    }

    /// `value` clamped to 0...255 and rounded to the nearest whole number, as a UInt32. Adding
    /// 1.5 x 2^23 leaves the rounded value in the low mantissa bits: no conversion check needed.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt32 {
        (min(max(value, 0), 255) + 12_582_912).bitPattern & 0xFF
    }
}
