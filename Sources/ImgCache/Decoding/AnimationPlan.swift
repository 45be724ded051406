/// What decoding an animation for several targets settles before any pixel, the same for every
/// animated format: the canvas checked against the limits as held twice (the canvas and a copy:
/// GIF's restore-to-previous, libwebp's previous canvas), each target's geometry, and the frames
/// each target keeps.
struct AnimationPlan {
    let canvas: PixelSize
    let geometries: [ResizeGeometry]
    /// Frames each target keeps (or, for a poster, scores): its `framesToDecode` at its output size, and no more than keep the
    /// canvas pixels decoded within `limits.maxTotalPixels` (at least one).
    let framesToKeep: [Int]

    /// Checks `canvas` of a `format` file against the limits of `targets` (decoded together, so
    /// sharing their limits) and plans their frames.
    /// - Throws: as `DecodingLimits.check` and `checkWorkingMemory`, and as
    ///   `DecodingOptions.geometry(forStoredSize:orientation:)`.
    init(canvas: PixelSize, targets: [DecodingOptions], format: ImageFormat) throws {
        let limits = targets[0].limits
        try limits.check(width: canvas.width, height: canvas.height, format: format)
        try limits.checkWorkingMemory(bytesPerPixel: 8, for: canvas)
        self.canvas = canvas
        geometries = try targets.map { try $0.geometry(forStoredSize: canvas, orientation: .up) }
        let framesByTotal = max(1, limits.maxTotalPixels / max(1, canvas.area))
        framesToKeep = zip(targets, geometries).map { min($0.framesToDecode(frameSize: $1.outputSize), framesByTotal) }
    }

    /// Frames read: as many as the target that keeps most keeps.
    var framesToRead: Int { framesToKeep.max()! }

    /// The targets that keep frame `index` (counted from 0), and a resampler of the canvas for them.
    func resampler(forFrame index: Int) -> (targets: [Int], resampler: RowResampler) {
        let keeping = framesToKeep.indices.filter { index < framesToKeep[$0] }
        return (keeping, RowResampler(inputSize: canvas, geometries: keeping.map { geometries[$0] }))
    }
}
