import Foundation

/// A variant made ready for a request: its stored file (or bytes, when the server forbade
/// storing), what it holds, and, when it was rendered for a caller that wants them, the pixels it
/// was encoded from. A variant found in the cache carries no pixels: its headers tell its size.
struct PreparedVariant: Sendable {
    let format: ImageFormat
    let pixelSize: PixelSize
    let frameCount: Int
    let byteCount: Int
    /// The variant's file in the disk cache; nil when not stored.
    let fileURL: URL?
    /// The encoded bytes when not stored, else nil.
    let unstoredData: Data?
    /// Format and size of the original and the frame a poster kept, when it was decoded for this variant.
    let source: (format: ImageFormat, size: PixelSize, posterFrame: Int?)?
    let cacheOutcome: CacheOutcome
    let timings: ImageTimings
    /// When the variant stops being fresh (its original's expiry); nil: no expiry known.
    let expiresAt: Date?
    /// The pixels the variant was encoded from, when they were kept.
    let image: DecodedImage?

    /// Where the encoded bytes are.
    var encoded: ImageSource {
        if let fileURL { return .file(path: fileURL.path) }
        return .data(unstoredData ?? Data())
    }

    /// This variant described for `request`, at `scale`, with the caller's total time; with
    /// `keepsBytes` false, without the bytes of a variant that was not stored.
    func summary(
        for request: ImageRequest, variantKey: String, scale: Double, total: Double, keepsBytes: Bool = true
    ) -> ImageSummary {
        var timings = self.timings
        timings.total = total
        return ImageSummary(
            request: request, pixelSize: pixelSize, frameCount: frameCount, scale: scale, format: format,
            byteCount: byteCount, fileURL: fileURL, unstoredData: keepsBytes ? unstoredData : nil, source: source,
            cacheOutcome: cacheOutcome, timings: timings, variantKey: variantKey)
    }

    /// A variant found in a cache: its headers, without decoding its pixels; its bytes are
    /// carried only when they are in no local file.
    static func stored(_ copy: CachedData, outcome: CacheOutcome) throws -> PreparedVariant {
        let inspection = try ImageDecoder.inspect(copy.source)
        return PreparedVariant(
            format: inspection.format, pixelSize: inspection.size, frameCount: inspection.frameCount,
            byteCount: copy.byteCount, fileURL: copy.fileURL, unstoredData: copy.fileURL == nil ? try copy.data() : nil,
            source: nil, cacheOutcome: outcome, timings: ImageTimings(), expiresAt: copy.expiresAt, image: nil)
    }
}

extension PreparedVariant {
    /// This variant with `seconds` spent loading the original.
    func loaded(in seconds: Double) -> PreparedVariant {
        var timings = self.timings
        timings.loading = seconds
        return PreparedVariant(
            format: format, pixelSize: pixelSize, frameCount: frameCount, byteCount: byteCount, fileURL: fileURL,
            unstoredData: unstoredData, source: source, cacheOutcome: cacheOutcome, timings: timings, expiresAt: expiresAt,
            image: image)
    }
}
