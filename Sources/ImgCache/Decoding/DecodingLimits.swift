/// Limits checked from the image headers before anything is allocated (decompression-bomb guard).
/// With the default limits and frame budgets, one decode and its encode stay under about 250 MB
/// of memory whatever the input (measured in `Benchmarks/memory-limits.sh`).
public struct DecodingLimits: Sendable, Hashable {
    /// Largest width x height of one frame (or of a GIF's canvas). Default 100 megapixels.
    public var maxPixelsPerFrame: Int
    /// Largest sum of source pixels over the frames kept from an animation; reading stops before a
    /// frame that would pass it (at least one frame is always kept). Default 1 gigapixel.
    public var maxTotalPixels: Int
    /// Largest width x height of the output (the target, or the source or region kept at its own
    /// size). Default 16 megapixels (4096 x 4096, 64 MiB of RGBA).
    public var maxOutputPixels: Int
    /// Most bytes a decoder holds at the source's resolution: a GIF's canvas (twice, for frames
    /// that restore what was under them), an interlaced PNG (held whole), libjpeg's memory (a
    /// progressive JPEG's coefficients: 3 bytes a pixel for 4:2:0 colour). Default 128 MiB.
    public var maxWorkingBytes: Int

    /// Limits with each value at the default its property states unless given; a decode refuses a
    /// limit that is not positive with `invalidArgument`.
    public init(
        maxPixelsPerFrame: Int = 100_000_000, maxTotalPixels: Int = 1_000_000_000, maxOutputPixels: Int = 4096 * 4096,
        maxWorkingBytes: Int = 128 << 20
    ) {
        self.maxPixelsPerFrame = maxPixelsPerFrame
        self.maxTotalPixels = maxTotalPixels
        self.maxOutputPixels = maxOutputPixels
        self.maxWorkingBytes = maxWorkingBytes
    }

    /// Throws `invalidArgument` for a limit that is not positive.
    /// The other side of a target given by one side of `side` pixels (the image's aspect ratio
    /// picks the output within it): as many pixels as `maxOutputPixels` leaves, at most
    /// `ImageTarget.maxSide`; nil when `side` is not positive or alone is over the limit.
    public func otherSide(forSide side: Int) -> Int? {
        guard side > 0 else { return nil }
        let other = min(ImageTarget.maxSide, maxOutputPixels / side)
        return other >= 1 ? other : nil
    }

    func validate() throws {
        guard maxPixelsPerFrame > 0, maxTotalPixels > 0, maxOutputPixels > 0, maxWorkingBytes > 0 else {
            throw ImgCacheError.invalidArgument("decoding limits must be positive")
        }
    }

    /// Throws `dimensionsOverLimit` when an output of `size` is over `maxOutputPixels`.
    func checkOutput(_ size: PixelSize) throws {
        if size.area > maxOutputPixels {
            throw ImgCacheError.dimensionsOverLimit(width: size.width, height: size.height, limit: maxOutputPixels)
        }
    }

    /// Throws `dimensionsOverLimit` when holding `bytesPerPixel` for each pixel of a `size` source
    /// is over `maxWorkingBytes`.
    func checkWorkingMemory(bytesPerPixel: Int, for size: PixelSize) throws {
        let (bytes, overflow) = size.area.multipliedReportingOverflow(by: bytesPerPixel)
        try checkWorkingMemory(bytes: overflow ? Int.max : bytes, for: size)
    }

    /// Throws `dimensionsOverLimit` when holding `bytes` for a `size` source is over
    /// `maxWorkingBytes` (the limit reported in pixels, at this source's bytes a pixel).
    func checkWorkingMemory(bytes: Int, for size: PixelSize) throws {
        if bytes > maxWorkingBytes {
            let pixels = Double(maxWorkingBytes) * Double(size.area) / Double(bytes)
            throw ImgCacheError.dimensionsOverLimit(width: size.width, height: size.height, limit: Int(pixels))
        }
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
