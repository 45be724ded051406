import CWebP

/// Decodes WebP with libwebp 1.2: lossy (VP8) and lossless (VP8L) stills, with or without alpha
/// (`WebPStillDecoder`), and animations (`WebPAnimationDecoder`). libwebp reads the whole file
/// from memory: a file input is mapped read-only (`WebPBytes`), never copied.
///
/// Headers are read first (`WebPFeatures`; the RIFF chunks by `WebPContainer` for animations), and
/// the size, the canvas and what libwebp will hold are checked against the limits before any
/// pixel is allocated. A corrupt, truncated or unsupported file is `corruptImage` with libwebp's
/// status in words. The ICC profile is exposed as stored (`iccProfile(in:)`); colours are not
/// converted.
enum WebPDecoder {
    static func decode(_ input: SourceInput, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try WebPBytes.with(input) { bytes in
            let features = try WebPFeatures(bytes)
            return features.isAnimated
                ? try WebPAnimationDecoder.decode(bytes, targets: targets, onFrame: onFrame)
                : try WebPStillDecoder.decode(bytes, features: features, targets: targets, onFrame: onFrame)
        }
    }

    /// The size, and for an animation with `countingFrames` its frame count and loop count (the
    /// chunks are parsed, no pixel is decoded).
    static func inspect(_ input: SourceInput, countingFrames: Bool) throws -> ImageInspection {
        try WebPBytes.with(input) { bytes in
            let features = try WebPFeatures(bytes)
            guard features.isAnimated && countingFrames else { return ImageInspection(format: .webp, size: features.size) }
            let container = try WebPContainer(bytes)
            return ImageInspection(
                format: .webp, size: container.canvasSize, frameCount: container.frameCount, loopCount: container.loopCount)
        }
    }

    /// The ICC profile stored in a WebP file's ICCP chunk, byte for byte, or nil when the file has
    /// none or its chunks cannot be parsed. The file may end after the ICCP chunk.
    static func iccProfile(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        (try? WebPContainer(bytes, allowsPartial: true))?.iccProfile
    }

    /// `corruptImage` for a libwebp status other than OK, saying what was being done.
    static func error(_ status: VP8StatusCode, while doing: String) -> ImgCacheError {
        let reason: String
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: reason = "data ends early (truncated file)"
        case VP8_STATUS_BITSTREAM_ERROR: reason = "invalid bitstream or RIFF container"
        case VP8_STATUS_UNSUPPORTED_FEATURE: reason = "a feature libwebp does not support"
        case VP8_STATUS_OUT_OF_MEMORY: reason = "libwebp ran out of memory"
        case VP8_STATUS_INVALID_PARAM: reason = "invalid parameters"
        default: reason = "libwebp status \(status.rawValue)"
        }
        return ImgCacheError.corruptImage(format: .webp, detail: "\(reason) while \(doing)")
    }
}
