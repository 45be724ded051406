import CWebP

/// Decodes an animated WebP with libwebpdemux's `WebPAnimDecoder`, which composites each frame on
/// the canvas as the container spec says (alpha blending, disposal to transparent; the canvas
/// starts transparent and the ANIM background colour is ignored, as browsers do). RGBA, no threads.
///
/// - Frames kept: as GIF, `options.framesToKeep` at the output size, and no more frames than keep
///   the sum of their canvas pixels within `limits.maxTotalPixels` (at least one). Each kept frame
///   is resampled to every target that keeps it and handed to `onFrame` at once; no frame after the
///   last kept is decoded.
/// - Limits: the canvas is checked from the headers before the decoder allocates it, and twice
///   (libwebp keeps a copy of the previous canvas) against the working memory.
/// - Delays: each frame's duration in milliseconds, rounded to hundredths of a second. The loop
///   count is the ANIM chunk's (0 = forever).
/// - Damage: a frame that cannot be decoded is `corruptImage` naming it. A truncated animation is
///   `corruptImage` even with `acceptsTruncatedData`: `WebPAnimDecoder` needs the whole file.
enum WebPAnimationDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        let options = targets[0]
        let container = try WebPContainer(bytes)
        let canvas = container.canvasSize
        let plan = try AnimationPlan(canvas: canvas, targets: targets, format: .webp)
        let lastFrame = min(plan.framesToRead, container.frameCount)

        var decoderOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else {
            throw ImgCacheError.corruptImage(format: .webp, detail: "libwebpdemux's ABI does not match its header")
        }
        decoderOptions.color_mode = MODE_RGBA
        decoderOptions.use_threads = 0
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let decoder = WebPAnimDecoderNew(&data, &decoderOptions) else {
            throw ImgCacheError.corruptImage(format: .webp, detail: "libwebpdemux cannot start decoding the animation")
        }
        defer { WebPAnimDecoderDelete(decoder) }

        var info = ImageInfo(
            format: .webp, sourceSize: canvas, loopCount: container.loopCount, colorProfile: WebPDecoder.colorProfile(in: bytes))
        let colorTransform = info.colorProfile.transformToSRGB(policy: options.colorPolicy)
        // The canvas is libwebp's, blended into by the next frame: rows are converted in a copy.
        var convertedRow = [UInt8](repeating: 0, count: colorTransform == nil ? 0 : canvas.width * 4)
        var previousTimestamp: Int32 = 0
        for frame in 0..<lastFrame {
            var pixels: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
                throw ImgCacheError.corruptImage(
                    format: .webp, detail: "frame \(frame + 1) of \(container.frameCount) cannot be decoded")
            }
            let delay = centiseconds(milliseconds: Int(timestamp) - Int(previousTimestamp))
            previousTimestamp = timestamp
            let (keeping, resampler) = plan.resampler(forFrame: frame)
            for row in 0..<canvas.height where !resampler.isComplete {
                let canvasRow = pixels + row * canvas.width * 4
                guard let colorTransform else {
                    resampler.push(row: canvasRow)
                    continue
                }
                convertedRow.withUnsafeMutableBufferPointer { converted in
                    converted.baseAddress!.update(from: canvasRow, count: converted.count)
                    colorTransform.apply(to: converted.baseAddress!, width: canvas.width)
                    resampler.push(row: converted.baseAddress!)
                }
            }
            for (index, bitmap) in zip(keeping, resampler.finish()) {
                try onFrame(index, ImageFrame(bitmap: bitmap, delayCentiseconds: delay), info)
            }
        }
        return info
    }

    /// A duration in milliseconds as hundredths of a second, rounded half up.
    static func centiseconds(milliseconds: Int) -> Int { (max(0, milliseconds) + 5) / 10 }
}
