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
    /// Which part a crop keeps (`.crop`), or where a padded image sits (`.pad`; `.smart` is the
    /// centre there). Default `.center`. A `.smart` crop decodes to the `.fill` size and is cut
    /// to the target by `AttentionCrop` before the frames are handed over.
    public var gravity: CropGravity
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
    /// What is done with the source's colour profile. Default `.convert` (to sRGB).
    public var colorPolicy: ColorPolicy
    /// Whether one still frame is kept, the one that represents an animation best (a poster for
    /// WidgetKit, which does not animate), chosen by `PosterPicker` among the first `maxFrames`
    /// frames, decoding no further than it needs; `ImageInfo.poster` tells which. The frame
    /// budget does not limit the frames scored, as only the best one is held. Default false.
    public var picksPoster: Bool
    /// The widget timeline this image is one entry of: the frame budget becomes at most the
    /// entry's (`TimelineBudget.bytesPerEntry`), and an image whose one frame is over it is
    /// refused with `overTimelineBudget`, or made smaller with `TimelineBudget.fitsImage`.
    /// Default nil: no timeline.
    public var timeline: TimelineBudget?

    /// Options with each value at the default its property states unless given; a decode refuses a
    /// value out of its range with `invalidArgument` (`dimensionsOverLimit` for a target over
    /// `limits.maxOutputPixels`).
    public init(
        targetSize: PixelSize? = nil,
        sourceRegion: PixelRect? = nil,
        contentMode: ContentMode = .fit,
        gravity: CropGravity = .center,
        allowsUpscaling: Bool = false,
        maxFrames: Int = 50,
        frameBudgetBytes: Int = 15 * 1024 * 1024,
        limits: DecodingLimits = DecodingLimits(),
        acceptsTruncatedData: Bool = false,
        appliesOrientation: Bool = true,
        colorPolicy: ColorPolicy = .convert,
        picksPoster: Bool = false,
        timeline: TimelineBudget? = nil
    ) {
        self.targetSize = targetSize
        self.sourceRegion = sourceRegion
        self.contentMode = contentMode
        self.gravity = gravity
        self.allowsUpscaling = allowsUpscaling
        self.maxFrames = maxFrames
        self.frameBudgetBytes = frameBudgetBytes
        self.limits = limits
        self.acceptsTruncatedData = acceptsTruncatedData
        self.appliesOrientation = appliesOrientation
        self.colorPolicy = colorPolicy
        self.picksPoster = picksPoster
        self.timeline = timeline
    }

    /// Throws `invalidArgument` for a zero or negative size, frame count or budget, a target over
    /// `ImageTarget.maxSide` a side, a limit that is not positive, or a focal point outside the
    /// image; `dimensionsOverLimit` for a target over `limits.maxOutputPixels`.
    func validate() throws {
        try limits.validate()
        try gravity.validate()
        if let targetSize {
            guard targetSize.width > 0, targetSize.height > 0,
                  targetSize.width <= ImageTarget.maxSide, targetSize.height <= ImageTarget.maxSide
            else {
                throw ImgCacheError.invalidArgument("target size \(targetSize) must be positive, at most \(ImageTarget.maxSide) a side")
            }
            try limits.checkOutput(targetSize)
        }
        if !Self.frameCounts.contains(maxFrames) {
            throw ImgCacheError.invalidArgument("max frames \(maxFrames) is not in 1...\(Self.frameCounts.upperBound)")
        }
        try timeline?.validate()
        if !Self.frameBudgets.contains(frameBudgetBytes) {
            throw ImgCacheError.invalidArgument(
                "frame budget \(frameBudgetBytes) bytes is not in 0...\(Self.frameBudgets.upperBound) (64 MiB)")
        }
    }

    /// The frame limits accepted: 1 to 10,000 frames.
    public static let frameCounts = 1...10_000
    /// The frame budgets accepted: 0 to 64 MiB.
    public static let frameBudgets = 0...(64 << 20)

    /// Frames kept when each output frame is `frameSize`: min(maxFrames, budget / (w x h x 4)), at
    /// least 1, counting each frame at `keptSize`; the budget is a timeline entry's when that is
    /// less. A poster keeps one.
    func framesToKeep(frameSize: PixelSize) -> Int {
        if picksPoster { return 1 }
        let (frameBytes, overflow) = keptSize(frameSize: frameSize).area.multipliedReportingOverflow(by: 4)
        let budget = min(frameBudgetBytes, timeline?.bytesPerEntry ?? frameBudgetBytes)
        return overflow ? 1 : max(1, min(maxFrames, budget / max(1, frameBytes)))
    }

    /// The size a frame resampled to `frameSize` ends at: the target's under `.pad`, as frames are
    /// padded to it; a smart crop's cut.
    func keptSize(frameSize: PixelSize) -> PixelSize {
        contentMode == .pad ? targetSize ?? frameSize : AttentionCrop(for: self)?.cropSize(of: frameSize) ?? frameSize
    }

    /// Frames an animation is decoded for: those kept, or for a poster the frames it may score.
    func framesToDecode(frameSize: PixelSize) -> Int {
        picksPoster ? maxFrames : framesToKeep(frameSize: frameSize)
    }

    /// The geometry for a source of `storedSize` (as stored, before orientation) shown with
    /// `orientation`; `invalidArgument` when `sourceRegion` does not fit the displayed source,
    /// `dimensionsOverLimit` when the output would be over `limits.maxOutputPixels`.
    func geometry(forStoredSize storedSize: PixelSize, orientation: ImageOrientation) throws -> ResizeGeometry {
        let geometry = try unlimitedGeometry(forStoredSize: storedSize, orientation: orientation)
        try limits.checkOutput(geometry.outputSize)
        return geometry
    }

    private func unlimitedGeometry(forStoredSize storedSize: PixelSize, orientation: ImageOrientation) throws -> ResizeGeometry {
        let target = orientation.swapsAxes ? targetSize?.transposed : targetSize
        let focus = gravity.stored(in: orientation)
        // A smart crop is cut after decoding, from the fill size.
        let contentMode = AttentionCrop(for: self) == nil ? contentMode : .fill
        guard let sourceRegion else {
            return ResizeGeometry.plan(
                source: storedSize, target: target, mode: contentMode, allowsUpscaling: allowsUpscaling, focus: focus)
        }
        let displayed = orientation.swapsAxes ? storedSize.transposed : storedSize
        guard sourceRegion.fits(in: displayed) else {
            throw ImgCacheError.invalidArgument("source region \(sourceRegion) does not fit in the \(displayed) source")
        }
        let region = orientation.storedRect(of: sourceRegion, stored: storedSize)
        return ResizeGeometry.plan(
            source: region.size, target: target, mode: contentMode, allowsUpscaling: allowsUpscaling, focus: focus)
            .placed(at: region, in: storedSize)
    }
}
