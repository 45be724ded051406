/// A step run on a decoded image after it is resampled to its output size and before it is
/// encoded: a blur, a tint, padding, a crop, or a caller's own (as Nuke's `ImageProcessing`).
/// `ImageRequest.processors` lists them in the order they run. The pipeline runs them on its own
/// decode threads, once per variant rendered, on the frames kept (every frame of an animation).
public protocol ImageProcessing: Sendable {
    /// A stable name of the step and of every parameter that changes its pixels, such as
    /// `blur(sigma=4)`: it enters the variant's cache key, so two processors with one identifier
    /// must make the same pixels, and a processor whose code changes its output must change its
    /// identifier. Printable ASCII without `;` or `|`, at most 200 characters.
    var identifier: String { get }

    /// `image` processed. Every frame of the result must have one size, and at least one frame
    /// must remain; the size may differ from the input's (padding, a crop).
    func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage
}

/// What a processor knows of the request it runs for.
public struct ImageProcessingContext: Sendable, Equatable {
    /// Pixels per point of the target (its screen scale), for sizes given in points such as a
    /// blur's sigma; 1 when the request has no target.
    public var scale: Double
    /// The target's size in pixels; nil when the request keeps the source's size.
    public var targetSize: PixelSize?

    /// A context of `scale` (default 1) and `targetSize` (default nil).
    public init(scale: Double = 1, targetSize: PixelSize? = nil) {
        self.scale = scale
        self.targetSize = targetSize
    }
}
