import Dispatch
import Synchronization

/// Receives each frame as soon as it is decoded, with what is known of the source so far.
public typealias FrameHandler = (ImageFrame, ImageInfo) throws -> Void

/// Receives a frame for the target at `target` (an index into the targets of a decode).
typealias TargetFrameHandler = (_ target: Int, ImageFrame, ImageInfo) throws -> Void

/// Decodes every format in `ImageDecoders` (JPEG, PNG, GIF, WebP, HEIC, AVIF), resampling while decoding to the size
/// `DecodingOptions` asks for.
///
/// The format is sniffed from the bytes. Only the frames kept are decoded: an animation stops being
/// read after the last frame the frame limit and budget allow.
public enum ImageDecoder {
    /// Bytes of output frames one pass of `decode(_:targets:passBudgetBytes:onImage:)` holds
    /// by default: 64 MiB.
    public static let defaultPassBudgetBytes = 64 << 20

    /// Decodes `source` and returns every kept frame.
    public static func decode(_ source: ImageSource, options: DecodingOptions = DecodingOptions()) throws
        -> DecodedImage
    {
        var frames: [ImageFrame] = []
        let info = try decode(source, options: options) { frame, _ in frames.append(frame) }
        return DecodedImage(info: info, frames: frames)
    }

    /// Decodes `source`, handing each kept frame to `onFrame` as soon as it is ready (a target over
    /// a `DecodingOptions.timeline` made to fit it first, from the header), so that a caller
    /// that writes frames out need not hold them all (but a smart crop, `CropGravity.smart`, holds
    /// them all until its window is found). Returns what was learned of the source.
    @discardableResult
    public static func decode(
        _ source: ImageSource, options: DecodingOptions = DecodingOptions(), onFrame: FrameHandler
    ) throws -> ImageInfo {
        try options.validate()
        let format = try source.sniffFormat()
        let options = options.timeline == nil ? options : try options.fitted(toTimelineFor: try inspect(source, complete: false))
        guard let crop = AttentionCrop(for: options) else {
            return try source.withInput { input in
                try decode(input, format: format, targets: [options]) { _, frame, info in try onFrame(frame, info) }
            }
        }
        var frames: [ImageFrame] = []
        let info = try source.withInput { input in
            try decode(input, format: format, targets: [options]) { _, frame, _ in frames.append(frame) }
        }
        let cropped = try crop.process(DecodedImage(info: info, frames: frames), context: ImageProcessingContext())
        for frame in cropped.frames { try onFrame(frame, info) }
        return info
    }

    /// Decodes `source` once for several targets and hands each target's image to `onImage` with
    /// the target's index, as soon as the pass that made it ends (a smart crop cut to its window):
    /// the images of one pass are handed over concurrently, on up to one thread per core, so that
    /// encoding them uses every core.
    ///
    /// A target over its `DecodingOptions.timeline` is made to fit it first (or refused), from
    /// the header. Targets are decoded together in passes whose output frames (width x height x 4 bytes, times
    /// the frames each keeps) fit `passBudgetBytes` (a target larger than the budget gets a pass of
    /// its own); within a pass, a source is decoded once (a JPEG once per DCT scale, 1/1, 1/2, 1/4 or
    /// 1/8, every target needing that scale resampled from the same rows).
    ///
    /// - Parameters:
    ///   - source: the encoded image.
    ///   - targets: the options of each target; they must share `limits`, `acceptsTruncatedData`,
    ///     `appliesOrientation` and `colorPolicy` (`invalidArgument` otherwise).
    ///   - passBudgetBytes: default `defaultPassBudgetBytes` (64 MiB).
    ///   - onImage: receives each target's index in `targets` and its image; a throw stops the
    ///     decode and is rethrown.
    public static func decode(
        _ source: ImageSource, targets: [DecodingOptions], passBudgetBytes: Int = defaultPassBudgetBytes,
        onImage: @Sendable (Int, DecodedImage) throws -> Void
    ) throws {
        guard let first = targets.first else { return }
        for options in targets {
            try options.validate()
            guard options.limits == first.limits, options.acceptsTruncatedData == first.acceptsTruncatedData,
                  options.appliesOrientation == first.appliesOrientation, options.colorPolicy == first.colorPolicy
            else {
                throw ImgCacheError.invalidArgument("targets decoded together must share limits, truncation, orientation and colour policy")
            }
        }
        let inspection = try inspect(source, complete: false)
        try first.limits.check(width: inspection.size.width, height: inspection.size.height, format: inspection.format)
        let targets = try targets.map { try $0.fitted(toTimelineFor: inspection) }
        for pass in try passes(targets, sourceSize: inspection.size, isAnimatable: try ImageDecoders.decoder(for: inspection.format).canAnimate, budget: passBudgetBytes) {
            var frames = [[ImageFrame]](repeating: [], count: pass.count)
            var infos = [ImageInfo?](repeating: nil, count: pass.count)
            _ = try source.withInput { input in
                try decode(input, format: inspection.format, targets: pass.map { targets[$0] }) { index, frame, info in
                    frames[index].append(frame)
                    infos[index] = info
                }
            }
            let images = try pass.indices.map { offset -> DecodedImage in
                // A decoder hands over at least one frame for every target, or throws.
                guard let info = infos[offset], !frames[offset].isEmpty else {
                    throw ImgCacheError.corruptImage(format: inspection.format, detail: "no frame was decoded for a target")
                }
                return DecodedImage(info: info, frames: frames[offset])
            }
            frames = []
            let failure = Mutex<(any Error)?>(nil)
            DispatchQueue.concurrentPerform(iterations: pass.count) { offset in
                do {
                    let crop = AttentionCrop(for: targets[pass[offset]])
                    try onImage(pass[offset], try crop?.process(images[offset], context: ImageProcessingContext()) ?? images[offset])
                } catch { failure.withLock { $0 = $0 ?? error } }
            }
            if let error = failure.withLock({ $0 }) { throw error }
        }
    }

    /// The indices of `targets` split into passes within `budget`, largest outputs first so that
    /// targets of similar reduction (one JPEG DCT scale) share a pass.
    private static func passes(
        _ targets: [DecodingOptions], sourceSize: PixelSize, isAnimatable: Bool, budget: Int
    ) throws -> [[Int]] {
        let bytes = try targets.map { options -> Int in
            let output = try options.geometry(forStoredSize: sourceSize, orientation: .up).outputSize
            let frames = isAnimatable ? options.framesToKeep(frameSize: output) : 1
            return output.area.multipliedReportingOverflow(by: 4 * frames).partialValue
        }
        var passes: [[Int]] = []
        var current: [Int] = [], currentBytes = 0
        for index in targets.indices.sorted(by: { bytes[$0] > bytes[$1] }) {
            if !current.isEmpty && currentBytes + bytes[index] > budget {
                passes.append(current)
                current = []
                currentBytes = 0
            }
            current.append(index)
            currentBytes += bytes[index]
        }
        passes.append(current)
        return passes
    }

    /// Decodes the open `input` of `format` for `targets` with the format's registered decoder
    /// (through `PosterPass` when a target keeps a poster).
    @discardableResult
    static func decode(
        _ input: SourceInput, format: ImageFormat, targets: [DecodingOptions], onFrame: TargetFrameHandler
    ) throws -> ImageInfo {
        let decoder = try ImageDecoders.decoder(for: format)
        guard targets.contains(where: \.picksPoster) else { return try decoder.decode(input, for: targets, onFrame: onFrame) }
        return try PosterPass.decode(input, decoder: decoder, targets: targets, onFrame: onFrame)
    }
}
