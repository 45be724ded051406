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
        firstInput.withUnsafeBufferPointer { firstInput in
            tapCount.withUnsafeBufferPointer { tapCount in
                weightOffset.withUnsafeBufferPointer { weightOffset in
                    weights.withUnsafeBufferPointer { weights in
                        for column in 0..<outputLength {
                            var red: Float = 0, green: Float = 0, blue: Float = 0, alpha: Float = 0
                            var pixel = row + Int(firstInput[column]) * 4
                            var weight = weights.baseAddress! + Int(weightOffset[column])
                            for _ in 0..<Int(tapCount[column]) {
                                let coverage = weight.pointee * Float(pixel[3])
                                red += coverage * Float(pixel[0])
                                green += coverage * Float(pixel[1])
                                blue += coverage * Float(pixel[2])
                                alpha += coverage
                                pixel += 4
                                weight += 1
                            }
                            let out = output + column * 4
                            out[0] = red; out[1] = green; out[2] = blue; out[3] = alpha
                        }
                    }
                }
            }
        }
    }
}
