import Foundation
import ImgCache

/// Encodes decoded frames in the output format as they arrive: a GIF is written frame by frame on a
/// second core while decoding goes on (a frame is dropped once encoded); a still keeps its one
/// frame until `finish`.
final class OutputWriter {
    let format: ImageFormat
    private let jpegQuality: Int
    private var still: Bitmap?
    private var gifEncoder: BackgroundGIFEncoder?
    private var size: PixelSize?
    private var frameCount = 0

    init(format: ImageFormat, jpegQuality: Int) {
        self.format = format
        self.jpegQuality = jpegQuality
    }

    func add(_ frame: ImageFrame, info: ImageInfo) throws {
        frameCount += 1
        if size == nil { size = frame.bitmap.size }
        if format == .gif {
            if gifEncoder == nil { gifEncoder = try BackgroundGIFEncoder(size: frame.bitmap.size, loopCount: info.loopCount) }
            try gifEncoder?.add(frame)
        } else if still == nil {
            still = frame.bitmap
        }
    }

    /// The encoded bytes, the pixel size and how many frames they hold.
    func finish() throws -> (data: Data, size: PixelSize, frameCount: Int) {
        guard let size else { throw ImgCacheError.encodingFailed(format: format, detail: "no frame was decoded") }
        switch (format, still, gifEncoder) {
        case (.png, let still?, _): return (try PNGEncoder.encode(still), size, 1)
        case (.jpeg, let still?, _): return (try JPEGEncoder.encode(still, quality: jpegQuality), size, 1)
        case (.gif, _, let encoder?): return (try encoder.finish(), size, frameCount)
        default: throw ImgCacheError.encodingFailed(format: format, detail: "no frame was decoded")
        }
    }
}
