import CWebP
import Foundation

/// Encodes frames as WebP with libwebp 1.2: one frame as a still (`WebPEncode`), several as an
/// animation (libwebpmux's `WebPAnimEncoder`, which stores each frame as the smallest rectangle
/// that changed). Pixels go in as straight RGBA; one thread, libwebp's default effort (method 4).
///
/// - Compression: `.lossy` is VP8 at a quality (colour in 4:2:0, the alpha plane lossless),
///   `.lossless` is VP8L, every pixel exact but the fully transparent ones, whose colour libwebp
///   drops (they decode as transparent black). An animation uses one compression for every frame.
/// - Animation: each frame is shown for its `delayCentiseconds` (x 10 ms, as stored, 0 included);
///   the ANIM loop count is the image's (0 loops forever), or 1 (play once) when it has none. The
///   canvas background is transparent.
/// - Colour: an RGB ICC profile, when given, is stored in an ICCP chunk (by libwebpmux).
public enum WebPEncoder {
    /// How a WebP's pixels are compressed.
    public enum Compression: Sendable, Hashable {
        /// VP8 at a quality from 1 (smallest) to 100 (best); alpha is kept exactly.
        case lossy(quality: Int)
        /// VP8L: the pixels exactly (fully transparent ones become transparent black).
        case lossless
    }

    /// The widest and tallest WebP: 16383 pixels.
    public static let maxSide = 16383

    /// `bitmap` as a still WebP.
    /// - Throws: `invalidArgument` for a quality outside 1...100, a side over `maxSide` or an ICC
    ///   profile outside 1...`ColorProfile.maxByteCount` bytes; `encodingFailed` when libwebp fails.
    public static func encode(_ bitmap: Bitmap, compression: Compression, iccProfile: [UInt8]? = nil) throws -> Data {
        var config = try checkedConfig(compression, size: bitmap.size, iccProfile: iccProfile)
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        WebPMemoryWriterInit(writer)
        defer {
            WebPMemoryWriterClear(writer)
            writer.deallocate()
        }
        try withPicture(of: bitmap) { picture in
            picture.pointee.writer = WebPMemoryWrite
            picture.pointee.custom_ptr = UnsafeMutableRawPointer(writer)
            guard WebPEncode(&config, picture) != 0 else {
                throw ImgCacheError.encodingFailed(format: .webp, detail: describe(picture.pointee.error_code))
            }
        }
        let still = Data(bytes: writer.pointee.mem, count: writer.pointee.size)
        return try iccProfile.map { try embedding($0, in: still) } ?? still
    }

    /// Every frame of `image`: a still for one frame, else an animation with the image's loop
    /// count and the frames' delays. `image` must have at least one frame.
    /// - Throws: as `encode(_:compression:iccProfile:)`, and `invalidArgument` for a loop count
    ///   outside 0...65535.
    public static func encode(_ image: DecodedImage, compression: Compression, iccProfile: [UInt8]? = nil) throws -> Data {
        guard let first = image.frames.first else { throw ImgCacheError.invalidArgument("a WebP needs at least one frame") }
        guard image.isAnimated else { return try encode(first.bitmap, compression: compression, iccProfile: iccProfile) }
        var config = try checkedConfig(compression, size: image.size, iccProfile: iccProfile)
        let loopCount = image.info.loopCount ?? 1
        guard (0...0xFFFF).contains(loopCount) else {
            throw ImgCacheError.invalidArgument("a WebP loop count must be 0...65535, not \(loopCount)")
        }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw abiMismatch }
        options.anim_params.loop_count = Int32(loopCount)
        options.anim_params.bgcolor = 0
        guard let encoder = WebPAnimEncoderNew(Int32(image.size.width), Int32(image.size.height), &options) else {
            throw ImgCacheError.encodingFailed(format: .webp, detail: "libwebpmux cannot start an animation of \(image.size)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var timestamp = 0
        for frame in image.frames {
            guard frame.bitmap.size == image.size else {
                throw ImgCacheError.invalidArgument("frame is \(frame.bitmap.size), the WebP is \(image.size)")
            }
            try withPicture(of: frame.bitmap) { picture in
                guard WebPAnimEncoderAdd(encoder, picture, try milliseconds(timestamp), &config) != 0 else {
                    throw animationError(encoder)
                }
            }
            timestamp += max(0, frame.delayCentiseconds) * 10
        }
        var animation = WebPData()
        defer { WebPDataClear(&animation) }
        guard WebPAnimEncoderAdd(encoder, nil, try milliseconds(timestamp), nil) != 0,
              WebPAnimEncoderAssemble(encoder, &animation) != 0
        else { throw animationError(encoder) }
        let data = Data(bytes: animation.bytes, count: animation.size)
        return try iccProfile.map { try embedding($0, in: data) } ?? data
    }

    /// libwebp's settings for `compression` (its default preset, method 4; lossless at effort 70
    /// as `WebPEncodeLosslessRGBA`), after checking the quality, the size and the profile.
    private static func checkedConfig(_ compression: Compression, size: PixelSize, iccProfile: [UInt8]?) throws -> WebPConfig {
        guard size.width <= maxSide, size.height <= maxSide else {
            throw ImgCacheError.invalidArgument("a WebP is at most \(maxSide) pixels a side, not \(size)")
        }
        if let iccProfile, iccProfile.isEmpty || iccProfile.count > ColorProfile.maxByteCount {
            throw ImgCacheError.invalidArgument("an ICC profile of \(iccProfile.count) bytes is not in 1...\(ColorProfile.maxByteCount)")
        }
        var config = WebPConfig()
        let quality: Int
        switch compression {
        case .lossy(let lossyQuality):
            guard (1...100).contains(lossyQuality) else {
                throw ImgCacheError.invalidArgument("WebP quality \(lossyQuality) is not in 1...100")
            }
            quality = lossyQuality
        case .lossless:
            quality = 70
        }
        guard WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, Float(quality)) != 0 else { throw abiMismatch }
        config.lossless = compression == .lossless ? 1 : 0
        return config
    }

    /// Calls `body` with a picture holding a copy of `bitmap`'s pixels as ARGB (what both
    /// encoders take), freed afterwards.
    private static func withPicture(of bitmap: Bitmap, _ body: (UnsafeMutablePointer<WebPPicture>) throws -> Void) throws {
        let picture = UnsafeMutablePointer<WebPPicture>.allocate(capacity: 1)
        picture.initialize(to: WebPPicture())
        defer { picture.deallocate() }
        guard WebPPictureInit(picture) != 0 else { throw abiMismatch }
        defer { WebPPictureFree(picture) }
        picture.pointee.use_argb = 1
        picture.pointee.width = Int32(bitmap.width)
        picture.pointee.height = Int32(bitmap.height)
        let imported = bitmap.pixels.withUnsafeBufferPointer { pixels in
            WebPPictureImportRGBA(picture, pixels.baseAddress, Int32(bitmap.width * 4))
        }
        guard imported != 0 else {
            throw ImgCacheError.encodingFailed(format: .webp, detail: "libwebp cannot hold a \(bitmap.size) picture (out of memory)")
        }
        try body(picture)
    }

    /// `webp` with `iccProfile` in an ICCP chunk (and the VP8X header that announces it).
    private static func embedding(_ iccProfile: [UInt8], in webp: Data) throws -> Data {
        try webp.withUnsafeBytes { bytes in
            try iccProfile.withUnsafeBufferPointer { icc in
                var image = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
                guard let mux = WebPMuxCreate(&image, 0) else {
                    throw ImgCacheError.encodingFailed(format: .webp, detail: "libwebpmux cannot read the encoded WebP")
                }
                defer { WebPMuxDelete(mux) }
                var chunk = WebPData(bytes: icc.baseAddress, size: icc.count)
                var output = WebPData()
                defer { WebPDataClear(&output) }
                guard WebPMuxSetChunk(mux, "ICCP", &chunk, 0) == WEBP_MUX_OK, WebPMuxAssemble(mux, &output) == WEBP_MUX_OK else {
                    throw ImgCacheError.encodingFailed(format: .webp, detail: "libwebpmux cannot add the ICC profile")
                }
                return Data(bytes: output.bytes, count: output.size)
            }
        }
    }

    /// A frame's start in milliseconds, as WebPAnimEncoder takes it (at most 2^31 - 1).
    private static func milliseconds(_ value: Int) throws -> Int32 {
        guard let milliseconds = Int32(exactly: value) else {
            throw ImgCacheError.invalidArgument("an animation of \(value) ms is longer than WebP's timestamps hold")
        }
        return milliseconds
    }

    private static let abiMismatch = ImgCacheError.encodingFailed(format: .webp, detail: "libwebp's ABI does not match its header")

    private static func animationError(_ encoder: OpaquePointer) -> ImgCacheError {
        .encodingFailed(format: .webp, detail: WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "libwebpmux failed")
    }

    /// libwebp's encoding error in words.
    private static func describe(_ error: WebPEncodingError) -> String {
        switch error {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "libwebp ran out of memory"
        case VP8_ENC_ERROR_BAD_DIMENSION: return "the picture's size is outside what WebP holds"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW, VP8_ENC_ERROR_PARTITION_OVERFLOW: return "a VP8 partition is over 512 KiB"
        case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would be over 4 GiB"
        default: return "libwebp encoding error \(error.rawValue)"
        }
    }
}
