/// Picks the frame of an animation that represents it best, as the frames stream out of a
/// decoder, holding only the best frame so far (and the one being scored).
///
/// - Score: the standard deviation of the frame's luminance (Rec. 601 luma times alpha, so
///   transparent pixels count as black), sampled on a grid of at most 64 x 64 pixels: 0 for a
///   uniform (blank) frame, rising with contrast, so a fade-in scores low until it is done.
/// - Best: a frame replaces the best one only when it scores more than 2% above it, so ties and
///   near-ties go to the earliest frame.
/// - Stopping: once the best frame is not blank (score at least 4, about 1.5% of the range) and
///   the 3 frames after it did not replace it, the animation has settled and no further frame is
///   decoded. Otherwise decoding stops at the frame window (`DecodingOptions.maxFrames`).
final class PosterPicker {
    /// Below this score a frame is blank: nothing (or a near-uniform colour) to show.
    static let blankScore = 4.0
    /// Frames after the best one that do not replace it before the decode stops.
    static let patience = 3
    /// How much more than the best a frame must score to replace it.
    static let improvement = 1.02
    /// Most samples on each axis of a frame.
    static let gridSide = 64

    private struct Best {
        let frame: ImageFrame
        let info: ImageInfo
        let index: Int
        let score: Double
    }

    private var best: Best?
    private var framesSeen = 0
    private var framesSinceBest = 0

    /// True when no later frame needs to be decoded.
    var isSettled: Bool {
        guard let best else { return false }
        return best.score >= Self.blankScore && framesSinceBest >= Self.patience
    }

    /// Scores `frame` (the next one in the file) and keeps it, as a still, when it is the best so far.
    func consider(_ frame: ImageFrame, info: ImageInfo) {
        let score = Self.score(frame.bitmap)
        defer { framesSeen += 1 }
        if let best, score <= best.score * Self.improvement {
            framesSinceBest += 1
            return
        }
        best = Best(frame: ImageFrame(bitmap: frame.bitmap), info: info, index: framesSeen, score: score)
        framesSinceBest = 0
    }

    /// The chosen frame, with its info telling which it is (`ImageInfo.poster`); nil before any frame.
    var chosen: (frame: ImageFrame, info: ImageInfo)? {
        guard let best else { return nil }
        var info = best.info
        info.poster = PosterChoice(index: best.index, framesDecoded: framesSeen, score: best.score)
        return (best.frame, info)
    }

    /// The standard deviation of alpha-weighted luma over a grid of at most `gridSide` squared samples.
    static func score(_ bitmap: Bitmap) -> Double {
        let columns = min(bitmap.width, gridSide), rows = min(bitmap.height, gridSide)
        let pixels = bitmap.pixels
        var sum = 0.0, squares = 0.0
        for row in 0..<rows {
            let y = row * bitmap.height / rows
            for column in 0..<columns {
                let offset = (y * bitmap.width + column * bitmap.width / columns) * 4
                let luma = (0.299 * Double(pixels[offset]) + 0.587 * Double(pixels[offset + 1]) + 0.114 * Double(pixels[offset + 2]))
                    * Double(pixels[offset + 3]) / 255
                sum += luma
                squares += luma * luma
            }
        }
        let count = Double(columns * rows)
        let mean = sum / count
        return max(0, squares / count - mean * mean).squareRoot()
    }
}
