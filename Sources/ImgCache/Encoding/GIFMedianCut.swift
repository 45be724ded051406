/// Median cut over a colour histogram, with split points chosen by squared error, followed by one
/// k-means pass over the histogram bins.
///
/// The histogram has 5 bits per channel (32768 cells); each occupied cell's bin keeps its pixel
/// count and the exact sums of its pixels' channels and squared channels, so palette colours are
/// true pixel means.
struct GIFMedianCut {
    /// One occupied histogram bin: its coordinates (top 5 bits per channel) and pixel totals.
    private struct Bin {
        var coordinates: SIMD3<Int32>
        var count: Int
        var sum: SIMD3<Int>
        var squares: Int

        var mean: SIMD3<Double> { SIMD3<Double>(sum) / Double(count) }
    }

    /// A box of bins: a range of `bins` and the totals over it.
    private struct Box {
        var range: Range<Int>
        var count = 0
        var sum = SIMD3<Int>()
        var squares = 0

        /// Sum of squared distances from the box's pixels to their mean.
        var error: Double {
            guard count > 0 else { return 0 }
            let total = SIMD3<Double>(sum)
            return Double(squares) - (total * total).sum() / Double(count)
        }

        mutating func add(_ bin: Bin) {
            count += bin.count
            sum &+= bin.sum
            squares += bin.squares
        }
    }

    /// Per histogram cell, the index of its bin in `bins`, or -1 when empty. Kept between frames
    /// and reset after use; the bins themselves take room only for the cells a frame occupies.
    private var slots = [Int32](repeating: -1, count: 1 << 15)
    private var bins: [Bin] = []

    /// Up to `maxColors` colours for the pixels of `pixels` (RGBA8) with alpha >= 128; empty when
    /// there are none.
    mutating func palette(for pixels: UnsafeBufferPointer<UInt8>, maxColors: Int) -> [SIMD3<UInt8>] {
        buildHistogram(pixels)
        guard !bins.isEmpty else { return [] }
        var boxes = [Box(range: 0..<bins.count)]
        for bin in bins { boxes[0].add(bin) }
        while boxes.count < maxColors {
            var chosen = -1
            var largest = 0.0
            for (index, box) in boxes.enumerated() where box.range.count > 1 && box.error > largest {
                chosen = index
                largest = box.error
            }
            guard chosen >= 0 else { break }
            let (low, high) = split(boxes[chosen])
            boxes[chosen] = low
            boxes.append(high)
        }
        let centres = refine(boxes.map { SIMD3<Double>($0.sum) / Double($0.count) })
        return centres.map { SIMD3<UInt8>(truncatingIfNeeded: Self.rounded($0)) }
    }

    private mutating func buildHistogram(_ pixels: UnsafeBufferPointer<UInt8>) {
        bins.removeAll(keepingCapacity: true)
        slots.withUnsafeMutableBufferPointer { slots in
            for offset in stride(from: 0, to: pixels.count, by: 4) where pixels[offset + 3] >= 128 {
                let red = Int(pixels[offset]), green = Int(pixels[offset + 1]), blue = Int(pixels[offset + 2])
                let key = (red >> 3) << 10 | (green >> 3) << 5 | blue >> 3
                var slot = Int(slots[key])
                if slot < 0 {
                    slot = bins.count
                    slots[key] = Int32(slot)
                    bins.append(Bin(
                        coordinates: SIMD3(Int32(key >> 10), Int32((key >> 5) & 31), Int32(key & 31)),
                        count: 0, sum: .zero, squares: 0))
                }
                bins[slot].count += 1
                bins[slot].sum &+= SIMD3(red, green, blue)
                bins[slot].squares += red * red + green * green + blue * blue
            }
            for bin in bins {
                slots[Int(bin.coordinates.x) << 10 | Int(bin.coordinates.y) << 5 | Int(bin.coordinates.z)] = -1
            }
        }
    }

    /// Splits `box` across the channel whose bin means vary most, at the point that leaves the least
    /// squared error in the two halves.
    private mutating func split(_ box: Box) -> (Box, Box) {
        var weightedSquares = SIMD3<Double>()
        for bin in bins[box.range] {
            let mean = bin.mean
            weightedSquares += mean * mean * Double(bin.count)
        }
        let total = SIMD3<Double>(box.sum)
        let variance = weightedSquares - total * total / Double(box.count)
        let channel = variance.x >= variance.y && variance.x >= variance.z ? 0 : (variance.y >= variance.z ? 1 : 2)
        bins[box.range].sort { $0.coordinates[channel] < $1.coordinates[channel] }

        var left = Box(range: box.range.lowerBound..<box.range.lowerBound)
        var best = (error: Double.infinity, end: box.range.lowerBound + 1)
        for end in (box.range.lowerBound + 1)..<box.range.upperBound {
            left.add(bins[end - 1])
            let right = Box(
                range: end..<box.range.upperBound, count: box.count - left.count,
                sum: box.sum &- left.sum, squares: box.squares - left.squares)
            let error = left.error + right.error
            if error < best.error { best = (error, end) }
        }
        var low = Box(range: box.range.lowerBound..<best.end)
        var high = Box(range: best.end..<box.range.upperBound)
        for bin in bins[low.range] { low.add(bin) }
        for bin in bins[high.range] { high.add(bin) }
        return (low, high)
    }

    /// One k-means step: each bin goes to its nearest centre and each centre moves to the mean of
    /// the pixels of its bins (a centre that gets none stays where it was).
    private func refine(_ centres: [SIMD3<Double>]) -> [SIMD3<Double>] {
        let search = GIFNearestColor(palette: centres.map(Self.rounded))
        var sums = [SIMD3<Double>](repeating: SIMD3(), count: centres.count)
        var counts = [Int](repeating: 0, count: centres.count)
        for bin in bins {
            let nearest = search.nearest(to: Self.rounded(bin.mean))
            sums[nearest] += SIMD3<Double>(bin.sum)
            counts[nearest] += bin.count
        }
        return centres.indices.map { counts[$0] > 0 ? sums[$0] / Double(counts[$0]) : centres[$0] }
    }

    private static func rounded(_ colour: SIMD3<Double>) -> SIMD3<Int32> {
        SIMD3<Int32>(colour.rounded(.toNearestOrAwayFromZero))
            .clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 255))
    }
}
