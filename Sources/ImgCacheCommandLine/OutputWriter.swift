import Foundation
import ImgCache

/// Encodes decoded frames as they arrive: a GIF is written frame by frame on a second core while
/// decoding goes on (a frame is dropped once encoded); a still keeps its one frame until `finish`.
/// The automatic format holds the first frame until it knows whether a second follows: GIF for
/// several frames, else JPEG (quality 85) when every pixel is opaque, else PNG, as the pipeline
/// chooses for its variants. Under `ColorPolicy.keep` a JPEG or PNG carries the source's RGB profile.
final class OutputWriter {
    private let format: ImageRequest.OutputFormat
    private let colorPolicy: ColorPolicy
    /// The profile to embed, known with the first frame.
    private var iccProfile: [UInt8]?
    /// The first frame, until a second one makes the output a GIF.
    private var first: ImageFrame?
    private var gifEncoder: BackgroundGIFEncoder?
    private var size: PixelSize?
    private var frameCount = 0

    /// `format`: `.png` and `.jpeg` keep the first frame only. `colorPolicy`: the decode's.
    init(format: ImageRequest.OutputFormat, colorPolicy: ColorPolicy) {
        self.format = format
        self.colorPolicy = colorPolicy
    }

    func add(_ frame: ImageFrame, info: ImageInfo) throws {
        frameCount += 1
        if frameCount == 1 { iccProfile = info.colorProfile.embeddedBytes(under: colorPolicy) }
        if size == nil { size = frame.bitmap.size }
        let startsGIF = format == .gif || (format == .automatic && first != nil)
        if gifEncoder == nil && startsGIF {
            let encoder = try BackgroundGIFEncoder(size: frame.bitmap.size, loopCount: info.loopCount)
            if let first { try encoder.add(first) }
            first = nil
            gifEncoder = encoder
        }
        if let gifEncoder {
            try gifEncoder.add(frame)
        } else if first == nil {
            first = frame
        }
    }

    /// The encoded bytes, their format, the pixel size and how many frames they hold.
    func finish() throws -> (data: Data, format: ImageFormat, size: PixelSize, frameCount: Int) {
        guard let size else { throw ImgCacheError.encodingFailed(format: .png, detail: "no frame was decoded") }
        if let gifEncoder { return (try gifEncoder.finish(), .gif, size, frameCount) }
        guard let still = first?.bitmap else { throw ImgCacheError.encodingFailed(format: .png, detail: "no frame was decoded") }
        switch format {
        case .jpeg(let quality): return (try JPEGEncoder.encode(still, quality: quality, iccProfile: iccProfile), .jpeg, size, 1)
        case .automatic where still.isOpaque: return (try JPEGEncoder.encode(still, iccProfile: iccProfile), .jpeg, size, 1)
        default: return (try PNGEncoder.encode(still, iccProfile: iccProfile), .png, size, 1)
        }
    }
}
