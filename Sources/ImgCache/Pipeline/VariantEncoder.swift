import Foundation

/// Encodes the kept frames of a prepared image in a request's output format, under its byte cap:
/// the one place the encoder is chosen (by the pipeline's variants and the CLI's `decode` and `slice`).
///
/// - `.automatic`: GIF for several frames, JPEG (at `quality`, default 85) for one opaque frame,
///   PNG for one with any translucent pixel.
/// - `.webp(quality:)`: every frame, lossy when every pixel of every frame is opaque, else
///   lossless; always lossy under a byte cap. `.webpLossless`: lossless.
/// - `.avif(quality:)`: every frame, lossy (see `AVIFEncoder`), alpha kept.
/// - PNG and JPEG keep the first frame; they, WebP and AVIF carry `iccProfile` (GIF cannot).
/// - `maxBytes`: see `ByteCap`; the quality searched down from is the format's (or `quality` for
///   `.automatic`'s JPEG).
/// - `controls`: progressive JPEG, JPEG and AVIF chroma, a PNG palette (see `EncoderControls`).
public struct VariantEncoder: Sendable {
    /// The format asked for.
    public let format: ImageRequest.OutputFormat
    /// The JPEG quality `.automatic` uses. Default 85.
    public let quality: Int
    /// The cap on the output's bytes; nil for none. Default nil.
    public let maxBytes: Int?
    /// The RGB ICC profile to embed; nil for none. Default nil.
    public let iccProfile: [UInt8]?
    /// Progressive JPEG, chroma subsampling and a PNG palette. Default none.
    public let controls: EncoderControls

    /// - Throws: `invalidArgument` for a quality outside 1...100, a cap below 1 byte or a palette
    ///   outside 2...256 colours.
    public init(
        format: ImageRequest.OutputFormat, quality: Int? = nil, maxBytes: Int? = nil, iccProfile: [UInt8]? = nil,
        controls: EncoderControls = EncoderControls()
    ) throws {
        for quality in [quality, format.carriedQuality].compactMap({ $0 }) where !(1...100).contains(quality) {
            throw ImgCacheError.invalidArgument("quality \(quality) is not in 1...100")
        }
        if let maxBytes, maxBytes < 1 {
            throw ImgCacheError.invalidArgument("a byte cap of \(maxBytes) is not at least 1 byte")
        }
        self.format = format
        self.quality = quality ?? JPEGEncoder.defaultQuality
        self.maxBytes = maxBytes
        self.iccProfile = iccProfile
        try controls.validate()
        self.controls = controls
    }

    /// The encoder of `request` (its format, quality, byte cap and encoder controls) with `iccProfile`.
    public init(_ request: ImageRequest, iccProfile: [UInt8]? = nil) throws {
        try self.init(
            format: request.outputFormat, quality: request.quality, maxBytes: request.maxBytes, iccProfile: iccProfile,
            controls: request.encoderControls)
    }

    /// `image` encoded, and the format written. `image` must have at least one frame.
    /// - Throws: `outputOverByteLimit` when the output cannot fit `maxBytes`; what the encoder throws.
    public func encode(_ image: DecodedImage) throws -> (data: Data, format: ImageFormat) {
        guard let first = image.frames.first?.bitmap else { throw ImgCacheError.invalidArgument("no frame to encode") }
        switch format {
        case .automatic where image.isAnimated, .gif:
            return (try fitting(GIFEncoder.encode(image), .gif), .gif)
        case .automatic where first.isOpaque:
            return (try jpeg(first, quality: quality), .jpeg)
        case .automatic, .png:
            let png = try PNGEncoder.encode(first, iccProfile: iccProfile, paletteColors: controls.paletteColors)
            return (try fitting(png, .png), .png)
        case .jpeg(let quality):
            return (try jpeg(first, quality: quality), .jpeg)
        case .webp(let quality) where maxBytes != nil || image.frames.allSatisfy(\.bitmap.isOpaque):
            let webp = try largestFitting(upTo: quality, .webp) { quality in
                try WebPEncoder.encode(image, compression: .lossy(quality: quality), iccProfile: iccProfile)
            }
            return (webp, .webp)
        case .webp, .webpLossless:
            return (try fitting(WebPEncoder.encode(image, compression: .lossless, iccProfile: iccProfile), .webp), .webp)
        case .avif(let quality):
            let avif = try largestFitting(upTo: quality, .avif) { quality in
                try AVIFEncoder.encode(image, quality: quality, iccProfile: iccProfile, chroma: controls.chroma)
            }
            return (avif, .avif)
        }
    }

    private func jpeg(_ bitmap: Bitmap, quality: Int) throws -> Data {
        try largestFitting(upTo: quality, .jpeg) { quality in
            try JPEGEncoder.encode(
                bitmap, quality: quality, iccProfile: iccProfile, progressive: controls.progressiveJPEG,
                chroma: controls.chroma ?? .yuv420)
        }
    }

    /// `encode` at `quality`, or under a cap at the largest quality up to it that fits.
    private func largestFitting(upTo quality: Int, _ format: ImageFormat, _ encode: (Int) throws -> Data) throws -> Data {
        guard let maxBytes else { return try encode(quality) }
        return try ByteCap(maxBytes: maxBytes).largestFitting(upTo: quality, format: format, encode)
    }

    /// `data`, made in `format` without a quality to lower (a GIF written frame by frame
    /// elsewhere, say), once checked against the cap.
    /// - Throws: `outputOverByteLimit` when it is over `maxBytes`.
    public func fitting(_ data: Data, _ format: ImageFormat) throws -> Data {
        guard let maxBytes else { return data }
        return try ByteCap(maxBytes: maxBytes).check(data, format: format)
    }
}
