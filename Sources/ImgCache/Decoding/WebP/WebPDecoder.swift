import CWebP

/// Decodes WebP with libwebp 1.2: lossy (VP8) and lossless (VP8L) stills, with or without alpha
/// (`WebPStillDecoder`), and animations (`WebPAnimationDecoder`). libwebp reads the whole file
/// from memory: a file input is mapped read-only (`SourceBytes`), never copied.
///
/// Headers are read first (`WebPFeatures`; the RIFF chunks by `WebPContainer` for animations), and
/// the size, the canvas and what libwebp will hold are checked against the limits before any
/// pixel is allocated. A corrupt, truncated or unsupported file is `corruptImage` with libwebp's
/// status in words. An ICCP chunk's profile is applied as `DecodingOptions.colorPolicy` says
/// (`colorProfile(in:)`), to a still's rows and to a copy of each composited frame's rows.
enum WebPDecoder {
    static func decode(_ input: SourceInput, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try SourceBytes.with(input, format: .webp) { bytes in
            let features = try WebPFeatures(bytes)
            return features.isAnimated
                ? try WebPAnimationDecoder.decode(bytes, targets: targets, onFrame: onFrame)
                : try WebPStillDecoder.decode(bytes, features: features, targets: targets, onFrame: onFrame)
        }
    }

    /// The size, and with `complete` the colour profile and for an animation its frame count and
    /// loop count (the chunks are parsed, no pixel is decoded).
    static func inspect(_ input: SourceInput, complete: Bool) throws -> ImageInspection {
        try SourceBytes.with(input, format: .webp) { bytes in
            let features = try WebPFeatures(bytes)
            let colorProfile = complete ? colorProfile(in: bytes) : .none
            guard features.isAnimated && complete else {
                return ImageInspection(format: .webp, size: features.size, colorProfile: colorProfile)
            }
            let container = try WebPContainer(bytes)
            return ImageInspection(
                format: .webp, size: container.canvasSize, frameCount: container.frameCount, loopCount: container.loopCount,
                colorProfile: colorProfile)
        }
    }

    /// The ICC profile stored in a WebP file's ICCP chunk, byte for byte, or nil when the file has
    /// none or its chunks cannot be parsed. The file may end after the ICCP chunk.
    static func iccProfile(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        (try? WebPContainer(bytes, allowsPartial: true))?.iccProfile
    }

    /// The colour profile of the ICCP chunk (an RGB profile: WebP pixels are RGB), `.none` without one.
    static func colorProfile(in bytes: UnsafeRawBufferPointer) -> SourceColorProfile {
        iccProfile(in: bytes).map { SourceColorProfile(iccBytes: $0, imageColorSpace: .rgb) } ?? .none
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
