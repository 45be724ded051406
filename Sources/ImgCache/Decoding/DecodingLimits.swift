/// Limits checked from the image headers before anything is allocated (decompression-bomb guard).
public struct DecodingLimits: Sendable, Hashable {
    /// Largest width x height of one frame (or of a GIF's canvas). Default 100 megapixels.
    public var maxPixelsPerFrame: Int
    /// Largest sum of source pixels over the frames kept from an animation; reading stops before a
    /// frame that would pass it (at least one frame is always kept). Default 1 gigapixel.
    public var maxTotalPixels: Int

    public init(maxPixelsPerFrame: Int = 100_000_000, maxTotalPixels: Int = 1_000_000_000) {
        self.maxPixelsPerFrame = maxPixelsPerFrame
        self.maxTotalPixels = maxTotalPixels
    }

    /// Throws `dimensionsOverLimit` when a `width x height` frame is over `maxPixelsPerFrame`
    /// (or has a zero side, reported as corrupt for `format`).
    func check(width: Int, height: Int, format: ImageFormat) throws {
        guard width > 0, height > 0 else {
            throw ImgCacheError.corruptImage(format: format, detail: "zero image dimension (\(width)x\(height))")
        }
        if width > maxPixelsPerFrame / height {
            throw ImgCacheError.dimensionsOverLimit(width: width, height: height, limit: maxPixelsPerFrame)
        }
    }
}
