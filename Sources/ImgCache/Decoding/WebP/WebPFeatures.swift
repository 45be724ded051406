import CWebP

/// What a WebP file's headers say, read by libwebp (`WebPGetFeatures`) without decoding a pixel:
/// the size (a VP8X file's canvas), alpha, animation and the kind of bitstream.
struct WebPFeatures {
    var size: PixelSize
    /// The file declares alpha (VP8X flag, ALPH chunk, or the VP8L header's hint).
    var hasAlpha: Bool
    /// The file is an animation (VP8X animation flag): decoded by `WebPAnimationDecoder`.
    var isAnimated: Bool
    /// A plain lossy (VP8) still: libwebp decodes it with alpha 255 unless it has an ALPH chunk.
    var isLossy: Bool
    /// A lossless (VP8L) still: libwebp holds its whole image (4 bytes a pixel) while decoding.
    var isLossless: Bool

    /// Reads the headers at the start of `bytes` (the data may end after them).
    /// - Throws: `corruptImage` when they are missing, truncated or malformed.
    init(_ bytes: UnsafeRawBufferPointer) throws {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw WebPDecoder.error(status, while: "reading the headers") }
        size = PixelSize(width: Int(features.width), height: Int(features.height))
        hasAlpha = features.has_alpha != 0
        isAnimated = features.has_animation != 0
        isLossy = features.format == 1
        isLossless = features.format == 2
    }

    /// Bytes libwebp holds at the source's resolution while decoding a still: the whole image of
    /// a lossless file, the alpha plane of a lossy one with alpha.
    var sourceWorkingBytes: Int {
        let (area, overflow) = size.area.multipliedReportingOverflow(by: isLossless ? 4 : hasAlpha ? 1 : 0)
        return overflow ? Int.max : area
    }
}
