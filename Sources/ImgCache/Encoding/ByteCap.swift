import Foundation

/// The most bytes an encoded image may take (`ImageRequest.maxBytes`, imgproxy's `max_bytes`),
/// and the search for the largest quality whose output fits it.
struct ByteCap {
    let maxBytes: Int

    /// `encode` at the largest quality in 1...`quality` whose output is at most `maxBytes`:
    /// `quality` itself when it fits, else found by bisection between 1 (which must fit) and
    /// `quality`, so that the result fits and one quality higher does not. Encodes at most
    /// 2 + log2(`quality`) times, always the same pixels.
    /// - Throws: `outputOverByteLimit` when even quality 1 is over the cap; what `encode` throws.
    func largestFitting(upTo quality: Int, format: ImageFormat, _ encode: (Int) throws -> Data) throws -> Data {
        let best = try encode(quality)
        guard best.count > maxBytes else { return best }
        var fitting = (quality: 1, data: try encode(1))
        _ = try check(fitting.data, format: format)
        // Invariant: `fitting.quality` fits, `over` does not.
        var over = quality
        while over - fitting.quality > 1 {
            let middle = (fitting.quality + over) / 2
            let data = try encode(middle)
            if data.count <= maxBytes { fitting = (middle, data) } else { over = middle }
        }
        return fitting.data
    }

    /// `data` when it is at most `maxBytes` (a format without a quality to lower).
    /// - Throws: `outputOverByteLimit` when it is over.
    func check(_ data: Data, format: ImageFormat) throws -> Data {
        guard data.count <= maxBytes else {
            throw ImgCacheError.outputOverByteLimit(format: format, bytes: data.count, limit: maxBytes)
        }
        return data
    }
}
