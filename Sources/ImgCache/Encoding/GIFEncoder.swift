import CGIF
import Foundation

/// Writes a GIF, frame by frame, with giflib into memory: create it with the canvas size and loop
/// count, `add` each frame (it is quantized and written at once, so the caller need not keep it),
/// then `finish`.
///
/// - Loop count: a NETSCAPE2.0 extension is written when `loopCount` is non-nil (0 loops forever);
///   without one, players show the animation once.
/// - Frames are written whole (the full canvas) with a local colour table and a graphic control
///   block holding the frame's delay, disposal "restore to background" and, when some pixel has
///   alpha < 128, a transparent index. Since each frame covers the canvas, clearing it after the
///   frame is always right: "do not dispose" would let an earlier frame show through the next
///   frame's transparent pixels, and the next frame is not known when this one is written.
/// - Palette: see `ColorQuantizer`. Frames with at most 256 colours (transparent counting as one)
///   are lossless; others go through median cut, one k-means pass and nearest-colour mapping, with
///   no dithering. Alpha is one bit: < 128 transparent, otherwise opaque.
public final class GIFEncoder {
    /// Size of the canvas and of every frame.
    public let size: PixelSize
    /// NETSCAPE2.0 loop count written, or nil for none.
    public let loopCount: Int?
    private let writer: GIFWriter
    private var quantizer = ColorQuantizer()

    /// Starts a GIF of `size` that loops `loopCount` times (0 forever; nil writes no loop extension).
    public init(size: PixelSize, loopCount: Int?) throws {
        guard size.width > 0, size.height > 0, size.width <= 0xFFFF, size.height <= 0xFFFF else {
            throw ImgCacheError.invalidArgument("a GIF canvas must be 1...65535 pixels a side, not \(size)")
        }
        if let loopCount, !(0...0xFFFF).contains(loopCount) {
            throw ImgCacheError.invalidArgument("a GIF loop count must be 0...65535, not \(loopCount)")
        }
        self.size = size
        self.loopCount = loopCount
        writer = try GIFWriter(size: size)
        if let loopCount { try writer.putLoopCount(loopCount) }
    }

    /// Quantizes `frame` and writes it; its bitmap must be `size`. The delay is clamped to 0...65535.
    public func add(_ frame: ImageFrame) throws {
        guard frame.bitmap.size == size else {
            throw ImgCacheError.invalidArgument("frame is \(frame.bitmap.size), the GIF is \(size)")
        }
        var quantized = quantizer.quantize(frame.bitmap)
        let palette = quantized.palette.map { GifColorType(Red: $0.x, Green: $0.y, Blue: $0.z) }
        try writer.putFrame(
            size: size, indices: &quantized.indices, palette: palette,
            transparentIndex: quantized.transparentIndex, delayCentiseconds: frame.delayCentiseconds,
            disposal: DISPOSE_BACKGROUND)
    }

    /// Bytes of GIF written so far (each `add` writes its frame at once).
    public var byteCount: Int { writer.byteCount }

    /// Writes the trailer and returns the GIF. The encoder cannot be used afterwards.
    public func finish() throws -> Data {
        try writer.close()
    }

    /// Encodes every frame of `image`, with its loop count; `image` must have at least one frame.
    public static func encode(_ image: DecodedImage) throws -> Data {
        guard !image.frames.isEmpty else { throw ImgCacheError.invalidArgument("a GIF needs at least one frame") }
        let encoder = try GIFEncoder(size: image.size, loopCount: image.info.loopCount)
        for frame in image.frames { try encoder.add(frame) }
        return try encoder.finish()
    }
}
