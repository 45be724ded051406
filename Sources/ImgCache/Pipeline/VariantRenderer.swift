import Foundation
import Synchronization

/// One variant encoded, before it is stored.
struct EncodedVariant: Sendable {
    let plan: RequestPlan
    let data: Data
    let format: ImageFormat
    let size: PixelSize
    let frameCount: Int
    /// What the decode learned of the original.
    let info: ImageInfo
    /// The frames encoded (all of them for GIF, the first otherwise), when they are kept.
    let image: DecodedImage?
}

/// Decodes and encodes under the pipeline's limits: a decode waits for a decode slot (higher
/// priorities first) and for its memory estimate to fit beside the decodes running, then runs on
/// the blocking threads.
struct VariantRenderer: Sendable {
    let decodes: AsyncLimiter
    /// Bytes the decodes running at once may hold, by the estimate from each source's header.
    let decodeMemory: AsyncLimiter
    let blocking: BlockingPool
    let limits: DecodingLimits
    /// Bytes of output frames one multi-target decode holds at once.
    let passBudget: Int
    let metrics: PipelineMetrics

    /// Decodes `source` once for every plan (once per DCT scale for JPEG, in passes that bound the
    /// pixels held) and encodes each variant as soon as its pass ends; returns the variants in
    /// plan order and the seconds spent decoding and encoding. With `keepsPixels`, each keeps the
    /// frames it was encoded from.
    func render(_ source: ImageSource, _ plans: [RequestPlan], keepsPixels: Bool, context: WorkContext) async throws
        -> (encoded: [EncodedVariant], decoding: Double, encoding: Double)
    {
        let (passBudget, metrics) = (self.passBudget, self.metrics)
        return try await limited(source, plans.map(\.options), context: context) {
            let work = try Self.decodeAndEncode(source, plans, keepsPixels: keepsPixels, passBudget: passBudget)
            metrics.observe(.decode, seconds: work.decoding)
            metrics.observe(.encode, seconds: work.encoding)
            return work
        }
    }

    /// A stored variant decoded as it is: its size, every frame it holds, its pixels as stored
    /// (a variant kept with its profile is not converted when read back).
    func decodeStored(_ source: ImageSource, context: WorkContext) async throws -> DecodedImage {
        let options = DecodingOptions(
            maxFrames: DecodingOptions.frameCounts.upperBound, frameBudgetBytes: DecodingOptions.frameBudgets.upperBound,
            limits: limits, colorPolicy: .keep)
        let metrics = self.metrics
        return try await limited(source, [options], context: context) {
            let start = DispatchTime.now()
            defer { metrics.observe(.decode, seconds: ImagePipeline.seconds(since: start)) }
            return try ImageDecoder.decode(source, options: options)
        }
    }

    /// Runs `work` on a blocking thread once the decode memory gate and a decode slot let it,
    /// recording the wait as the decode queue's.
    private func limited<Result: Sendable>(
        _ source: ImageSource, _ targets: [DecodingOptions], context: WorkContext,
        _ work: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        let queued = DispatchTime.now()
        let cost = try await decodeCost(source, targets)
        return try await decodeMemory.run(cost: cost, context: context) { [decodes, blocking, metrics] in
            try await decodes.run(context: context) {
                try await blocking.run {
                    metrics.observe(.decodeQueue, seconds: ImagePipeline.seconds(since: queued))
                    return try work()
                }
            }
        }
    }

    /// What a decode of `source` for `targets` costs at the memory gate: its estimate from the
    /// header (read on the blocking threads), or 1 when the header does not read, as the decode
    /// will then fail at once.
    private func decodeCost(_ source: ImageSource, _ targets: [DecodingOptions]) async throws -> Int {
        let header = try await blocking.run { try? ImageDecoder.inspect(source, complete: false) }
        guard let header else { return 1 }
        return Self.estimatedDecodeMemory(header, targets: targets, passBudget: passBudget)
    }

    /// Bytes a decode of a source with `header` for `targets` may hold at once, estimated from the
    /// header alone, for the pipeline's memory gate (`Configuration.decodingMemoryBytes`):
    /// - the source's pixels at the format's `workingBytesPerSourcePixel` (4; 8 for a GIF, its
    ///   canvas and a copy to restore): what an interlaced PNG, a progressive JPEG or a GIF holds at
    ///   the source's resolution;
    /// - three times each target's output frames (the frames, the encoder's copy and its output;
    ///   at the target's size when padded, at the fill size for a smart crop), of which a
    ///   multi-target decode holds `passBudget` at once beside the largest.
    /// A target that will fail (over the output limit, a region that does not fit) counts nothing.
    static func estimatedDecodeMemory(_ header: ImageInspection, targets: [DecodingOptions], passBudget: Int) -> Int {
        let stored = header.orientation.swapsAxes ? header.size.transposed : header.size
        let decoder = try? ImageDecoders.decoder(for: header.format)
        let working = Double(stored.area) * Double(decoder?.workingBytesPerSourcePixel ?? 4)
        let outputs = targets.map { options -> Double in
            guard let fitted = try? options.geometry(forStoredSize: stored, orientation: header.orientation).outputSize
            else { return 0 }
            // A padded frame is the target's size.
            let output = options.contentMode == .pad ? options.targetSize ?? fitted : fitted
            let frame = Double(output.area) * 4
            guard decoder?.canAnimate == true else { return frame }
            // Frames kept by the budget at the size they end at; a smart crop holds them uncut.
            return frame * Double(options.framesToKeep(frameSize: fitted))
        }
        let held = min(outputs.reduce(0, +), (outputs.max() ?? 0) + Double(passBudget))
        return Int(min(working + 3 * held, Double(Int.max / 2)))
    }

    private static func decodeAndEncode(
        _ source: ImageSource, _ plans: [RequestPlan], keepsPixels: Bool, passBudget: Int
    ) throws -> (encoded: [EncodedVariant], decoding: Double, encoding: Double) {
        let start = DispatchTime.now()
        // Encodes of one pass run concurrently: results and encoding time are gathered under a lock.
        let results = Mutex((encoded: [EncodedVariant?](repeating: nil, count: plans.count), encoding: 0.0))
        try ImageDecoder.decode(source, targets: plans.map(\.options), passBudgetBytes: passBudget) { index, decoded in
            let encodeStart = DispatchTime.now()
            let image = try plans[index].process(decoded)
            let (data, format) = try plans[index].encode(image)
            var kept = image
            if format != .gif && format != .webp { kept.frames = [image.frames[0]] }
            let variant = EncodedVariant(
                plan: plans[index], data: data, format: format, size: image.size, frameCount: kept.frames.count,
                info: image.info, image: keepsPixels ? kept : nil)
            let seconds = ImagePipeline.seconds(since: encodeStart)
            results.withLock { results in
                results.encoded[index] = variant
                results.encoding += seconds
            }
        }
        let (gathered, encoding) = results.withLock { ($0.encoded, $0.encoding) }
        // `ImageDecoder.decode(_:targets:)` hands over an image for every target, or throws.
        let encoded = try gathered.enumerated().map { index, variant in
            guard let variant else {
                throw ImgCacheError.encodingFailed(format: .png, detail: "no image was decoded for target \(index)")
            }
            return variant
        }
        // Encoding time is summed over threads: decoding is what the wall time leaves.
        return (encoded, max(0, ImagePipeline.seconds(since: start) - encoding), encoding)
    }
}
