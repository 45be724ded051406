/// Builds a palette by median cut in RGBA: boxes of histogram bins are split, the box with the
/// largest squared error first, across the channel with the largest variance, at the point that
/// leaves the least squared error, until there are as many boxes as colours; then one k-means
/// pass over the bins.
///
/// The histogram has 5 bits per colour channel and 4 for alpha (524,288 cells); each occupied
/// cell's bin keeps its pixel count and the exact sums of its pixels' channels and squared
/// channels, so palette colours are true pixel means. What a pixel counts as is the `Sampling`:
/// GIF's opaque colours (alpha constant, so it never splits a box) or premultiplied RGBA for a
/// PNG palette with alpha, where the distance between two colours is what they differ by over
/// any background and every fully transparent pixel is the one colour (0, 0, 0, 0).
struct MedianCut {
    /// Which pixels enter the histogram, and as what.
    enum Sampling {
        /// Pixels with alpha >= 128, as their colour with alpha 255 (GIF: the others become its
        /// one transparent entry).
        case opaqueColors
        /// Every pixel, premultiplied by its alpha (rounded to nearest).
        case premultiplied
    }

    /// One occupied histogram bin: its cell's coordinates and pixel totals.
    private struct Bin {
        var coordinates: SIMD4<Int32>
        var count: Int
        var sum: SIMD4<Int>
        var squares: Int

        var mean: SIMD4<Double> { SIMD4<Double>(sum) / Double(count) }
    }

    /// A box of bins: a range of `bins` and the totals over it.
    private struct Box {
        var range: Range<Int>
        var count = 0
        var sum = SIMD4<Int>()
        var squares = 0

        /// Sum of squared distances from the box's pixels to their mean.
        var error: Double {
            guard count > 0 else { return 0 }
            let total = SIMD4<Double>(sum)
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
    private var slots = [Int32](repeating: -1, count: 1 << 19)
    private var bins: [Bin] = []

    /// Up to `maxColors` colours for the pixels of `pixels` (RGBA8) as `sampling` counts them;
    /// empty when none counts.
    mutating func palette(for pixels: UnsafeBufferPointer<UInt8>, maxColors: Int, sampling: Sampling) -> [SIMD4<UInt8>] {
        buildHistogram(pixels, sampling: sampling)
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
        let centres = refine(boxes.map { SIMD4<Double>($0.sum) / Double($0.count) })
        return centres.map { SIMD4<UInt8>(truncatingIfNeeded: Self.rounded($0)) }
    }

    /// The pixel at `offset` as `sampling` counts it; nil when it does not count.
    @inline(__always)
    static func sample(_ pixels: UnsafeBufferPointer<UInt8>, at offset: Int, _ sampling: Sampling) -> SIMD4<Int32>? {
        switch sampling {
        case .opaqueColors:
            guard pixels[offset + 3] >= 128 else { return nil }
            return SIMD4(Int32(pixels[offset]), Int32(pixels[offset + 1]), Int32(pixels[offset + 2]), 255)
        case .premultiplied:
            return premultiplied(pixels, at: offset)
        }
    }

    /// The pixel at `offset`, its colour channels times its alpha / 255 (rounded to nearest).
    @inline(__always)
    static func premultiplied(_ pixels: UnsafeBufferPointer<UInt8>, at offset: Int) -> SIMD4<Int32> {
        let alpha = Int32(pixels[offset + 3])
        var colour = (SIMD4(Int32(pixels[offset]), Int32(pixels[offset + 1]), Int32(pixels[offset + 2]), 255) &* alpha &+ 127) / 255
        colour.w = alpha
        return colour
    }

    private mutating func buildHistogram(_ pixels: UnsafeBufferPointer<UInt8>, sampling: Sampling) {
        bins.removeAll(keepingCapacity: true)
        slots.withUnsafeMutableBufferPointer { slots in
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                guard let colour = Self.sample(pixels, at: offset, sampling) else { continue }
                let cell = colour &>> SIMD4(3, 3, 3, 4)
                let key = Int(cell.x << 14 | cell.y << 9 | cell.z << 4 | cell.w)
                var slot = Int(slots[key])
                if slot < 0 {
                    slot = bins.count
                    slots[key] = Int32(slot)
                    bins.append(Bin(coordinates: cell, count: 0, sum: .zero, squares: 0))
                }
                let wide = SIMD4<Int>(truncatingIfNeeded: colour)
                bins[slot].count += 1
                bins[slot].sum &+= wide
                bins[slot].squares += (wide &* wide).wrappedSum()
            }
            for bin in bins {
                let cell = bin.coordinates
                slots[Int(cell.x << 14 | cell.y << 9 | cell.z << 4 | cell.w)] = -1
            }
        }
    }

    /// Splits `box` across the channel whose bin means vary most, at the point that leaves the least
    /// squared error in the two halves.
    private mutating func split(_ box: Box) -> (Box, Box) {
        var weightedSquares = SIMD4<Double>()
        for bin in bins[box.range] {
            let mean = bin.mean
            weightedSquares += mean * mean * Double(bin.count)
        }
        let total = SIMD4<Double>(box.sum)
        let variance = weightedSquares - total * total / Double(box.count)
        var channel = 0
        for candidate in 1..<4 where variance[candidate] > variance[channel] { channel = candidate }
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
    private func refine(_ centres: [SIMD4<Double>]) -> [SIMD4<Double>] {
        let search = NearestColor(palette: centres.map(Self.rounded))
        var sums = [SIMD4<Double>](repeating: SIMD4(), count: centres.count)
        var counts = [Int](repeating: 0, count: centres.count)
        for bin in bins {
            let nearest = search.nearest(to: Self.rounded(bin.mean))
            sums[nearest] += SIMD4<Double>(bin.sum)
            counts[nearest] += bin.count
        }
        return centres.indices.map { counts[$0] > 0 ? sums[$0] / Double(counts[$0]) : centres[$0] }
    }

    private static func rounded(_ colour: SIMD4<Double>) -> SIMD4<Int32> {
        SIMD4<Int32>(colour.rounded(.toNearestOrAwayFromZero))
            .clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
    }
}
