/// What to decode: the target size and how to fit it, which frames to keep, and the limits.
public struct DecodingOptions: Sendable, Hashable {
    /// Size of the result in pixels; nil keeps the source size (or the region's). Default nil.
    public var targetSize: PixelSize?
    /// The region of the source to keep, in the pixels of the source as displayed (after EXIF
    /// orientation); nil keeps the whole source. Default nil. The target size and content mode
    /// then apply to the region as if it were the whole source: with no target the region is kept
    /// at its own size, pixel for pixel, with no resampling (JPEG decodes at 1/1 for it). A region
    /// that does not lie wholly inside the source is refused with `invalidArgument`.
    public var sourceRegion: PixelRect?
    /// How the source is fitted to `targetSize`. Default `.fit`.
    public var contentMode: ContentMode
    /// Whether a source smaller than the target is scaled up. Default false.
    public var allowsUpscaling: Bool
    /// Most frames kept from an animation. Default 50.
    public var maxFrames: Int
    /// Most bytes the kept frames may take (each `width x height x 4` at the output size); frames
    /// kept = min(maxFrames, budget / frame bytes), at least one. Default 15 MiB.
    public var frameBudgetBytes: Int
    /// Pixel limits checked before allocation. Default `DecodingLimits()`.
    public var limits: DecodingLimits
    /// Whether an image whose data ends early is returned (with `isTruncated` set, missing rows
    /// grey for JPEG and transparent otherwise) rather than rejected. Default false.
    public var acceptsTruncatedData: Bool
    /// Whether the JPEG EXIF orientation is applied. Default true.
    public var appliesOrientation: Bool

    public init(
        targetSize: PixelSize? = nil,
        sourceRegion: PixelRect? = nil,
        contentMode: ContentMode = .fit,
        allowsUpscaling: Bool = false,
        maxFrames: Int = 50,
        frameBudgetBytes: Int = 15 * 1024 * 1024,
        limits: DecodingLimits = DecodingLimits(),
        acceptsTruncatedData: Bool = false,
        appliesOrientation: Bool = true
    ) {
        self.targetSize = targetSize
        self.sourceRegion = sourceRegion
        self.contentMode = contentMode
        self.allowsUpscaling = allowsUpscaling
        self.maxFrames = maxFrames
        self.frameBudgetBytes = frameBudgetBytes
        self.limits = limits
        self.acceptsTruncatedData = acceptsTruncatedData
        self.appliesOrientation = appliesOrientation
    }

    /// Throws `invalidArgument` for a zero or negative size, frame count or budget.
    func validate() throws {
        if let targetSize, targetSize.width <= 0 || targetSize.height <= 0 {
            throw ImgCacheError.invalidArgument("target size \(targetSize) must be positive")
        }
        if maxFrames < 1 { throw ImgCacheError.invalidArgument("max frames must be at least 1") }
        if frameBudgetBytes < 0 { throw ImgCacheError.invalidArgument("frame budget must not be negative") }
    }

    /// Frames kept when each output frame is `frameSize`: min(maxFrames, budget / (w x h x 4)), at least 1.
    func framesToKeep(frameSize: PixelSize) -> Int {
        let frameBytes = max(1, frameSize.area * 4)
        return max(1, min(maxFrames, frameBudgetBytes / frameBytes))
    }

    /// The geometry for a source of `storedSize` (as stored, before orientation) shown with
    /// `orientation`; `invalidArgument` when `sourceRegion` does not fit the displayed source.
    func geometry(forStoredSize storedSize: PixelSize, orientation: ImageOrientation) throws -> ResizeGeometry {
        let target = orientation.swapsAxes ? targetSize?.transposed : targetSize
        guard let sourceRegion else {
            return ResizeGeometry.plan(source: storedSize, target: target, mode: contentMode, allowsUpscaling: allowsUpscaling)
        }
        let displayed = orientation.swapsAxes ? storedSize.transposed : storedSize
        guard sourceRegion.fits(in: displayed) else {
            throw ImgCacheError.invalidArgument("source region \(sourceRegion) does not fit in the \(displayed) source")
        }
        let region = orientation.storedRect(of: sourceRegion, stored: storedSize)
        return ResizeGeometry.plan(source: region.size, target: target, mode: contentMode, allowsUpscaling: allowsUpscaling)
            .placed(at: region, in: storedSize)
    }
}
