/// Which frame of an animation a poster decode kept, and how far it read (`DecodingOptions.picksPoster`).
public struct PosterChoice: Sendable, Equatable {
    /// The kept frame, counted from 0 in the file's order.
    public var index: Int
    /// Frames decoded to choose it: the frames after these were never decoded.
    public var framesDecoded: Int
    /// The kept frame's score: the standard deviation of its luminance (0 to 127.5; see `PosterPicker`).
    public var score: Double

    /// The choice of frame `index`, found after decoding `framesDecoded` frames, with its `score`.
    public init(index: Int, framesDecoded: Int, score: Double) {
        self.index = index
        self.framesDecoded = framesDecoded
        self.score = score
    }
}
