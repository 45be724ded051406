import Foundation
import ImgCache

/// Encodes decoded frames as they arrive: a GIF is written frame by frame on a second core while
/// decoding goes on (a frame is dropped once encoded); a WebP or AVIF keeps every frame and a still its
/// one frame until `finish`, which encodes them with `VariantEncoder`, as the pipeline does its
/// variants. The automatic format holds the first frame until it knows whether a second follows:
/// GIF for several frames, else JPEG when every pixel is opaque, else PNG. Under
/// `ColorPolicy.keep` a JPEG, PNG, WebP or AVIF carries the source's RGB profile.
final class OutputWriter {
    private let format: ImageRequest.OutputFormat
    private let quality: Int?
    private let maxBytes: Int?
    private let controls: EncoderControls
    private let colorPolicy: ColorPolicy
    /// The source's info (the profile to embed and the loop count), known with the first frame.
    private var info: ImageInfo?
    /// The frames kept for `finish`: every frame of a WebP, else the first until a second one makes
    /// the output a GIF.
    private var frames: [ImageFrame] = []
    private var gifEncoder: BackgroundGIFEncoder?
    private var size: PixelSize?
    private var frameCount = 0

    /// `format`: `.png` and `.jpeg` keep the first frame only. `quality`: the JPEG quality of
    /// `.automatic` (default 85). `maxBytes`: the output's byte cap (`ImageRequest.maxBytes`).
    /// `controls`: progressive JPEG, chroma and a PNG palette (default none). `colorPolicy`: the decode's.
    /// - Throws: `invalidArgument` for a quality outside 1...100, a cap below 1 or a palette
    ///   outside 2...256 colours.
    init(
        format: ImageRequest.OutputFormat, quality: Int? = nil, maxBytes: Int? = nil,
        controls: EncoderControls = EncoderControls(), colorPolicy: ColorPolicy
    ) throws {
        _ = try VariantEncoder(format: format, quality: quality, maxBytes: maxBytes, controls: controls)
        self.format = format
        self.quality = quality
        self.maxBytes = maxBytes
        self.controls = controls
        self.colorPolicy = colorPolicy
    }

    func add(_ frame: ImageFrame, info: ImageInfo) throws {
        frameCount += 1
        if self.info == nil { self.info = info }
        if size == nil { size = frame.bitmap.size }
        let startsGIF = format == .gif || (format == .automatic && !frames.isEmpty)
        if gifEncoder == nil && startsGIF {
            let encoder = try BackgroundGIFEncoder(size: frame.bitmap.size, loopCount: info.loopCount)
            for kept in frames { try encoder.add(kept) }
            frames = []
            gifEncoder = encoder
        }
        if let gifEncoder {
            try gifEncoder.add(frame)
        } else if frames.isEmpty || format.keepsEveryFrame {
            frames.append(frame)
        }
    }

    /// The encoded bytes, their format, the pixel size and how many frames they hold.
    /// - Throws: `outputOverByteLimit` when the output cannot fit the byte cap; the encoder's errors.
    func finish() throws -> (data: Data, format: ImageFormat, size: PixelSize, frameCount: Int) {
        guard let info, let size else { throw ImgCacheError.encodingFailed(format: .png, detail: "no frame was decoded") }
        let encoder = try VariantEncoder(
            format: format, quality: quality, maxBytes: maxBytes, iccProfile: info.colorProfile.embeddedBytes(under: colorPolicy),
            controls: controls)
        if let gifEncoder {
            let gif = try gifEncoder.finish()
            return (try encoder.fitting(gif, .gif), .gif, size, frameCount)
        }
        let image = DecodedImage(info: info, frames: frames)
        let (data, written) = try encoder.encode(image)
        return (data, written, size, frames.count)
    }
}

extension ImageRequest.OutputFormat {
    /// True for the formats whose every frame `OutputWriter` keeps for the encoder (WebP, AVIF).
    fileprivate var keepsEveryFrame: Bool {
        switch self {
        case .webp, .webpLossless, .avif: return true
        case .automatic, .png, .jpeg, .gif: return false
        }
    }
}
