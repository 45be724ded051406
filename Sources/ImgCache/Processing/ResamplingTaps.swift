/// The horizontal half of the area filter: for each output column, the input pixels it covers and
/// the fraction of the column each one covers (weights of a column sum to 1).
struct ResamplingTaps {
    private let firstInput: [Int32]
    private let tapCount: [Int32]
    private let weightOffset: [Int32]
    private let weights: [Float]
    let outputLength: Int
    /// The input pixels any column reads.
    let inputRange: Range<Int>

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
        inputRange = Int(firstInput.first ?? 0)..<Int((firstInput.last ?? 0) + (tapCount.last ?? 0))
    }

    /// Reduces one row of `inputLength` pixels (four float lanes each) to `outputLength` pixels,
    /// handing each to `emit` with its column: output pixel j = sum of weight x input over its taps.
    @inline(__always)
    func reduce(_ input: UnsafePointer<SIMD4<Float>>, emit: (Int, SIMD4<Float>) -> Void) {
        firstInput.withUnsafeBufferPointer { firstInput in
            tapCount.withUnsafeBufferPointer { tapCount in
                weightOffset.withUnsafeBufferPointer { weightOffset in
                    weights.withUnsafeBufferPointer { weights in
                        for column in 0..<outputLength {
                            var sum = SIMD4<Float>()
                            let first = input + Int(firstInput[column])
                            let weight = weights.baseAddress! + Int(weightOffset[column])
                            for tap in 0..<Int(tapCount[column]) {
                                sum += first[tap] * weight[tap]
                            }
                            emit(column, sum)
                        }
                    }
                }
            }
        }
    }

    /// Hands `body` each input pixel output `column` reads, with its weight.
    @inline(__always)
    func forEachTap(of column: Int, _ body: (Int, Float) -> Void) {
        let first = Int(firstInput[column]), offset = Int(weightOffset[column])
        for tap in 0..<Int(tapCount[column]) { body(first + tap, weights[offset + tap]) }
    }
}
