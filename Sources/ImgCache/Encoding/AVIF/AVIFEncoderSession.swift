import CAVIF
import Foundation

/// One libavif encoder set up as `AVIFEncoder` describes (libaom, one thread, `AVIFEncoder.speed`,
/// constant quality at the quality's `cq-level` for colour and alpha), fed frames and finished
/// once. Owns the `avifEncoder`.
final class AVIFEncoderSession {
    private let encoder: UnsafeMutablePointer<avifEncoder>

    /// Frames' durations are counted in hundredths of a second.
    /// - Throws: `encodingFailed` when libavif cannot create an encoder.
    init(quality: Int) throws {
        guard let encoder = avifEncoderCreate() else {
            throw ImgCacheError.encodingFailed(format: .avif, detail: "libavif cannot create an encoder")
        }
        self.encoder = encoder
        encoder.pointee.codecChoice = AVIF_CODEC_CHOICE_AOM
        encoder.pointee.maxThreads = 1
        encoder.pointee.speed = Int32(AVIFEncoder.speed)
        encoder.pointee.timescale = 100
        encoder.pointee.minQuantizer = Int32(AVIF_QUANTIZER_BEST_QUALITY)
        encoder.pointee.maxQuantizer = Int32(AVIF_QUANTIZER_WORST_QUALITY)
        encoder.pointee.minQuantizerAlpha = Int32(AVIF_QUANTIZER_BEST_QUALITY)
        encoder.pointee.maxQuantizerAlpha = Int32(AVIF_QUANTIZER_WORST_QUALITY)
        let level = String(AVIFEncoder.cqLevel(forQuality: quality))
        for (key, value) in [("end-usage", "q"), ("cq-level", level), ("a:end-usage", "q"), ("a:cq-level", level)] {
            avifEncoderSetCodecSpecificOption(encoder, key, value)
        }
    }

    deinit { avifEncoderDestroy(encoder) }

    /// Encodes `picture`, shown for `centiseconds`; `isOnlyFrame` marks a still image.
    func add(_ picture: AVIFPicture, centiseconds: Int, isOnlyFrame: Bool) throws {
        let flags = isOnlyFrame ? avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue) : avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_NONE.rawValue)
        try check(avifEncoderAddImage(encoder, picture.image, UInt64(centiseconds), flags), while: "encoding a frame")
    }

    /// The file: every frame added, in its container.
    func finish() throws -> Data {
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        try check(avifEncoderFinish(encoder, &output), while: "writing the file")
        return Data(bytes: output.data, count: output.size)
    }

    /// Throws `encodingFailed` with libavif's words for a result other than OK.
    private func check(_ result: avifResult, while doing: String) throws {
        guard result != AVIF_RESULT_OK else { return }
        let detail = withUnsafeBytes(of: encoder.pointee.diag.error) { buffer in
            String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        }
        let reason = String(cString: avifResultToString(result)) + (detail.isEmpty ? "" : " (\(detail))")
        throw ImgCacheError.encodingFailed(format: .avif, detail: "\(reason) while \(doing)")
    }
}
