import Foundation
import ImgCache

/// Encodes decoded frames in the output format as they arrive: an animation is written frame by
/// frame (a frame is dropped once encoded); a still keeps its one frame until `finish`.
final class OutputWriter {
    let format: ImageFormat
    private let jpegQuality: Int
    private var firstFrame: ImageFrame?
    private(set) var frameCount = 0

    init(format: ImageFormat, jpegQuality: Int) throws {
        self.format = format
        self.jpegQuality = jpegQuality
    }

    func add(_ frame: ImageFrame, info: ImageInfo) throws {
        frameCount += 1
        if firstFrame == nil { firstFrame = frame }
    }

    /// The encoded bytes, the pixel size and how many frames they hold.
    func finish() throws -> (data: Data, size: PixelSize, frameCount: Int) {
        guard let firstFrame else { throw ImgCacheError.encodingFailed(format: format, detail: "no frame was decoded") }
        switch format {
        case .png: return (try PNGEncoder.encode(firstFrame.bitmap), firstFrame.bitmap.size, 1)
        case .jpeg: return (try JPEGEncoder.encode(firstFrame.bitmap, quality: jpegQuality), firstFrame.bitmap.size, 1)
        case .gif: throw ImgCacheError.encodingFailed(format: .gif, detail: "GIF output is not available yet")
        }
    }
}
