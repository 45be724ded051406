/// The horizontal half of the area filter: for each output column, the input pixels it covers and
/// the fraction of the column each one covers (weights of a column sum to 1).
struct ResamplingTaps {
    private let firstInput: [Int32]
    private let tapCount: [Int32]
    private let weightOffset: [Int32]
    private let weights: [Float]
    let outputLength: Int

    /// Output column `j` covers `[start + j x step, start + (j + 1) x step)` of the input, where
    /// `step = length / outputLength`; positions outside `0..<inputLength` are clamped to the edge.
    init(inputLength: Int, start: Double, length: Double, outputLength: Int) {
        self.outputLength = outputLength
        let step = length / Double(outputLength)
        var firstInput = [Int32](), tapCount = [Int32](), weightOffset = [Int32](), weights = [Float]()
        firstInput.reserveCapacity(outputLength)
        tapCount.reserveCapacity(outputLength)
        weightOffset.reserveCapacity(outputLength)
        for column in 0..<outputLength {
            let low = start + Double(column) * step
            let high = column == outputLength - 1 ? start + length : low + step
            var first = Int(low.rounded(.down))
            var last = Int(high.rounded(.up)) - 1
            first = min(max(first, 0), inputLength - 1)
            last = min(max(last, first), inputLength - 1)
            var columnWeights = [Double]()
            for input in first...last {
                let covered = min(high, Double(input + 1)) - max(low, Double(input))
                columnWeights.append(max(covered, 0))
            }
            var total = columnWeights.reduce(0, +)
            if total <= 0 {
                columnWeights = [Double](repeating: 0, count: columnWeights.count)
                columnWeights[0] = 1
                total = 1
            }
            firstInput.append(Int32(first))
            tapCount.append(Int32(columnWeights.count))
            weightOffset.append(Int32(weights.count))
            weights.append(contentsOf: columnWeights.map { Float($0 / total) })
        }
        self.firstInput = firstInput
        self.tapCount = tapCount
        self.weightOffset = weightOffset
        self.weights = weights
    }

    /// Reduces one straight-alpha RGBA8 row to `outputLength` premultiplied pixels: each output pixel
    /// is `(sum w x R x A, sum w x G x A, sum w x B x A, sum w x A)`.
    func reduce(row: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<Float>) {
        let pixels = UnsafeRawPointer(row)
        let sums = UnsafeMutableRawPointer(output)
        firstInput.withUnsafeBufferPointer { firstInput in
            tapCount.withUnsafeBufferPointer { tapCount in
                weightOffset.withUnsafeBufferPointer { weightOffset in
                    weights.withUnsafeBufferPointer { weights in
                        for column in 0..<outputLength {
                            var sum = SIMD4<Float>()
                            var offset = Int(firstInput[column]) * 4
                            var weight = weights.baseAddress! + Int(weightOffset[column])
                            for _ in 0..<Int(tapCount[column]) {
                                var pixel = SIMD4<Float>(pixels.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
                                let coverage = weight.pointee * pixel[3]
                                pixel[3] = 1
                                sum += pixel * coverage
                                offset += 4
                                weight += 1
                            }
                            sums.storeBytes(of: sum, toByteOffset: column * 16, as: SIMD4<Float>.self)
                        }
                    }
                }
            }
        }
    }
}
