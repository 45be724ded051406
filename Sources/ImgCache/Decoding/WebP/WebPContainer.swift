import CWebP

/// The chunks of a WebP file as libwebpdemux parses them, without decoding a pixel: the canvas,
/// the frames, the loop count and the metadata chunks (ICCP). The parsed chunks point into the
/// bytes given, which must outlive this value.
final class WebPContainer {
    private let demuxer: OpaquePointer

    /// Parses the chunks of `bytes`; with `allowsPartial`, a file that ends early is parsed as far
    /// as it goes (enough for the chunks before the image data).
    /// - Throws: `corruptImage` when the RIFF structure is malformed, or truncated unless partial.
    init(_ bytes: UnsafeRawBufferPointer, allowsPartial: Bool = false) throws {
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var state = WEBP_DEMUX_PARSING_HEADER
        let demuxer = allowsPartial ? WebPDemuxPartial(&data, &state) : WebPDemux(&data)
        guard let demuxer else {
            throw ImgCacheError.corruptImage(
                format: .webp, detail: "malformed or truncated RIFF container (chunks cannot be parsed)")
        }
        self.demuxer = demuxer
    }

    deinit { WebPDemuxDelete(demuxer) }

    /// The canvas: the VP8X size, or the bitstream's for a simple file.
    var canvasSize: PixelSize { PixelSize(width: value(WEBP_FF_CANVAS_WIDTH), height: value(WEBP_FF_CANVAS_HEIGHT)) }
    /// Frames in the file (1 for a still).
    var frameCount: Int { value(WEBP_FF_FRAME_COUNT) }
    /// The ANIM chunk's loop count: 0 loops forever.
    var loopCount: Int { value(WEBP_FF_LOOP_COUNT) }

    /// The payload of the file's first ICCP chunk when the VP8X flags announce one.
    var iccProfile: [UInt8]? {
        guard UInt32(value(WEBP_FF_FORMAT_FLAGS)) & ICCP_FLAG.rawValue != 0 else { return nil }
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "ICCP", 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        return Array(UnsafeBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size))
    }

    private func value(_ feature: WebPFormatFeature) -> Int { Int(WebPDemuxGetI(demuxer, feature)) }
}
