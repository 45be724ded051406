import CAVIF
import Foundation

/// Encodes frames as AVIF with libavif 0.11 and libaom 3.6: one frame as a still image, several as
/// an `avis` image sequence. Lossy only; one thread (the pipeline's pool gives the parallelism).
///
/// - Quality: 1 (smallest) to 100 (best), meaning what it means to imgproxy, whose AVIF goes
///   through libvips and libheif's libaom plugin: libaom's constant-quality mode (`end-usage=q`)
///   at `cq-level` = ((100 - quality) x 63 + 50) / 100, quantizers free over 0...63, the alpha
///   plane at the same level. imgproxy's default AVIF quality is 63 (`defaultQuality`).
/// - Speed: libaom at `speed` 8 (imgproxy's `IMGPROXY_AVIF_SPEED` default): about 60 ms for a
///   510 x 383 photo on one core, where speed 6 takes 2.3 times as long for 0.6 dB more PSNR at the
///   same size, and speed 9 saves a third of the time but writes 20% more bytes at 1 dB less.
/// - Pixels: 8-bit YCbCr, BT.601 full range; chroma as `chroma` says, or when nil 4:2:0 below
///   quality 90 and 4:4:4 from 90 (as libvips subsamples chroma only below 90); an alpha plane when
///   any pixel is translucent.
/// - Colour: an RGB ICC profile, when given, is stored in a `colr` box; else `nclx` says sRGB.
/// - Animation: each frame is shown for its `delayCentiseconds` (0 stored as 1); libavif 0.11
///   writes no loop count, so browsers loop sequences forever.
public enum AVIFEncoder {
    /// The quality used when none is given: 63, imgproxy's `IMGPROXY_FORMAT_QUALITY` for AVIF.
    public static let defaultQuality = 63
    /// libaom's speed, 0 (slowest, smallest) to 10 (fastest): 8.
    public static let speed = 8
    /// The quality from which chroma is kept at full resolution (4:4:4): 90.
    public static let fullChromaQuality = 90
    /// Bytes libaom holds a pixel while encoding (measured: 354 MB peak for a 4096 x 4000 AVIF
    /// against 152 MB for the same JPEG): 12.
    static let encodingBytesPerPixel = 12
    /// The largest frame written, in pixels: 11,184,810 (libaom's `encodingBytesPerPixel` within
    /// 128 MiB, the decoder's default working memory), about 4096 x 2730. Larger frames are refused.
    public static let maxPixels = (128 << 20) / encodingBytesPerPixel

    /// libaom's `cq-level` (0 best ... 63 worst) for a quality in 1...100, as libheif computes it.
    public static func cqLevel(forQuality quality: Int) -> Int {
        ((100 - quality) * 63 + 50) / 100
    }

    /// `bitmap` as a still AVIF; `chroma` nil (the default) picks it by quality.
    /// - Throws: `invalidArgument` for a quality outside 1...100 or an ICC profile outside
    ///   1...`ColorProfile.maxByteCount` bytes; `dimensionsOverLimit` for more than `maxPixels`;
    ///   `encodingFailed` when libavif fails.
    public static func encode(
        _ bitmap: Bitmap, quality: Int = defaultQuality, iccProfile: [UInt8]? = nil, chroma: ChromaSubsampling? = nil
    ) throws -> Data {
        try encode(frames: [ImageFrame(bitmap: bitmap)], size: bitmap.size, quality: quality, iccProfile: iccProfile, chroma: chroma)
    }

    /// Every frame of `image`: a still for one frame, else a sequence with the frames' delays.
    /// `image` must have at least one frame, each of the image's size.
    /// - Throws: as `encode(_:quality:iccProfile:chroma:)`, and `invalidArgument` for a frame of another size.
    public static func encode(
        _ image: DecodedImage, quality: Int = defaultQuality, iccProfile: [UInt8]? = nil, chroma: ChromaSubsampling? = nil
    ) throws -> Data {
        guard !image.frames.isEmpty else { throw ImgCacheError.invalidArgument("an AVIF needs at least one frame") }
        return try encode(frames: image.frames, size: image.size, quality: quality, iccProfile: iccProfile, chroma: chroma)
    }

    private static func encode(
        frames: [ImageFrame], size: PixelSize, quality: Int, iccProfile: [UInt8]?, chroma: ChromaSubsampling?
    ) throws -> Data {
        guard (1...100).contains(quality) else { throw ImgCacheError.invalidArgument("AVIF quality \(quality) is not in 1...100") }
        if let iccProfile, iccProfile.isEmpty || iccProfile.count > ColorProfile.maxByteCount {
            throw ImgCacheError.invalidArgument("an ICC profile of \(iccProfile.count) bytes is not in 1...\(ColorProfile.maxByteCount)")
        }
        for frame in frames where frame.bitmap.size != size {
            throw ImgCacheError.invalidArgument("frame is \(frame.bitmap.size), the AVIF is \(size)")
        }
        guard size.area <= maxPixels else {
            throw ImgCacheError.dimensionsOverLimit(width: size.width, height: size.height, limit: maxPixels)
        }
        let encoder = try AVIFEncoderSession(quality: quality)
        let hasAlpha = !frames.allSatisfy(\.bitmap.isOpaque)
        let fullChroma = chroma.map { $0 == .yuv444 } ?? (quality >= fullChromaQuality)
        let format = fullChroma ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        for frame in frames {
            let picture = try AVIFPicture(frame.bitmap, format: format, keepsAlpha: hasAlpha, iccProfile: iccProfile)
            try encoder.add(picture, centiseconds: max(1, frame.delayCentiseconds), isOnlyFrame: frames.count == 1)
        }
        return try encoder.finish()
    }
}
