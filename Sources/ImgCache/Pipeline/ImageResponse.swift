import Foundation

/// Where a response's image came from.
public enum CacheOutcome: String, Sendable {
    /// The prepared image was in the memory cache.
    case memory
    /// The prepared image, or a fresh original, was in the disk cache; no request was made.
    case disk
    /// The stored original was stale; the server answered 304 Not Modified, so nothing was downloaded.
    case revalidated
    /// The original was downloaded.
    case network
    /// The prepared image, or a fresh original, came from the shared Redis tier (and was stored
    /// in the disk cache); no request was made to the origin.
    case shared
}

/// Seconds spent on each stage of a request.
public struct ImageTimings: Sendable, Hashable {
    /// Waiting for and receiving the original (0 when no request was made).
    public var loading: Double = 0
    /// Decoding (the original, or the stored variant) and resampling.
    public var decoding: Double = 0
    /// Encoding and storing the variant.
    public var encoding: Double = 0
    /// From the call to the response.
    public var total: Double = 0
}

/// A prepared image: its frames at the target pixel size and what it took to get them.
public struct ImageResponse: Sendable {
    /// The request this answers.
    public let request: ImageRequest
    /// The frames kept, all of the same pixel size.
    public let image: DecodedImage
    /// Screen scale the pixels are meant for (1 for a plain pixel target or none).
    public let scale: Double
    /// Format of the stored variant.
    public let format: ImageFormat
    /// Bytes of the stored variant.
    public let byteCount: Int
    /// The variant's file in the disk cache; nil when the server forbade storing (no-store).
    public let fileURL: URL?
    /// The variant's bytes when they were not stored (`fileURL` is nil), else nil.
    public let unstoredData: Data?
    /// Format and size of the original, and the frame a poster kept (`ImageInfo.poster`; nil
    /// for other requests), when it was decoded for this response (nil when the prepared
    /// variant came from a cache).
    public let source: (format: ImageFormat, size: PixelSize, posterFrame: Int?)?
    /// Where the image came from.
    public let cacheOutcome: CacheOutcome
    /// Seconds spent on each stage.
    public let timings: ImageTimings
    /// The variant's cache key (see `VariantKey`): the same on every instance for the same request,
    /// so a server can make entity tags from it and the bytes.
    public let variantKey: String

    /// Pixel size of the frames.
    public var pixelSize: PixelSize { image.size }
    /// The variant's encoded bytes, from the cache file or from memory.
    public func encodedData() throws -> Data { try summary.encodedData() }

    /// Size in points: pixels / scale.
    public var pointSize: PointSize { summary.pointSize }

    /// Everything about the response but its pixels.
    public var summary: ImageSummary {
        ImageSummary(
            request: request, pixelSize: pixelSize, frameCount: image.frames.count, scale: scale, format: format,
            byteCount: byteCount, fileURL: fileURL, unstoredData: unstoredData, source: source,
            cacheOutcome: cacheOutcome, timings: timings, variantKey: variantKey)
    }
}

/// What a prepared image is and where it came from, without its pixels: what `prefetch` returns,
/// so that preparing many images never holds them all in memory.
public struct ImageSummary: Sendable {
    /// The request this answers.
    public let request: ImageRequest
    /// Pixel size of the variant's frames.
    public let pixelSize: PixelSize
    /// Frames kept.
    public let frameCount: Int
    /// Screen scale the pixels are meant for (1 for a plain pixel target or none).
    public let scale: Double
    /// Format of the stored variant.
    public let format: ImageFormat
    /// Bytes of the stored variant.
    public let byteCount: Int
    /// The variant's file in the disk cache; nil when the server forbade storing (no-store).
    public let fileURL: URL?
    /// The variant's bytes when they were not stored (`fileURL` is nil), else nil. Always nil in
    /// the results of `prefetch`, which keeps no bytes.
    public let unstoredData: Data?
    /// As `ImageResponse.source`.
    public let source: (format: ImageFormat, size: PixelSize, posterFrame: Int?)?
    /// Where the variant came from.
    public let cacheOutcome: CacheOutcome
    /// Seconds spent on each stage.
    public let timings: ImageTimings
    /// The variant's cache key (see `ImageResponse.variantKey`).
    public let variantKey: String

    /// Size in points: pixels / scale.
    public var pointSize: PointSize {
        PointSize(width: Double(pixelSize.width) / scale, height: Double(pixelSize.height) / scale)
    }

    /// The variant's encoded bytes, from the cache file or from memory (empty when a prefetch
    /// dropped the bytes of a variant that was not stored).
    public func encodedData() throws -> Data {
        if let unstoredData { return unstoredData }
        guard let fileURL else { return Data() }
        return try OpenFile.read(fileURL)
    }
}
