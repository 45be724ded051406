import CJPEG

/// Owns one libjpeg-turbo decompressor (through the CJPEG shim, which runs every call under
/// setjmp) and turns its failures into `corruptImage` errors carrying libjpeg's message.
final class JPEGReader {
    private let decoder: OpaquePointer
    /// The decompressor's fields: header values after `readHeader`, parameters to set before `start`.
    let cinfo: UnsafeMutablePointer<jpeg_decompress_struct>

    /// Progressive scans allowed before a file is refused (a many-scan file burns CPU for nothing).
    static let maxScans: Int32 = 1000
    /// Bytes libjpeg may allocate; a progressive file holds all its coefficients, 2 bytes a sample.
    static let maxDecoderMemory = 1 << 30

    init(_ input: SourceInput) throws {
        guard let decoder = imgjpeg_decoder_create() else {
            throw ImgCacheError.corruptImage(format: .jpeg, detail: "cannot create a libjpeg decompressor")
        }
        self.decoder = decoder
        cinfo = imgjpeg_decoder_cinfo(decoder)
        imgjpeg_set_limits(decoder, Self.maxScans, Self.maxDecoderMemory)
        switch input {
        case .memory(let bytes):
            try check(imgjpeg_use_memory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count))
        case .file(let file):
            try check(imgjpeg_use_file(decoder, file))
        }
    }

    deinit { imgjpeg_decoder_destroy(decoder) }

    /// Size of the image as stored (before any EXIF orientation).
    var storedSize: PixelSize {
        PixelSize(width: Int(cinfo.pointee.image_width), height: Int(cinfo.pointee.image_height))
    }

    /// Size of the rows `readRows` delivers, known after `calcOutputDimensions`.
    var outputSize: PixelSize {
        PixelSize(width: Int(cinfo.pointee.output_width), height: Int(cinfo.pointee.output_height))
    }

    /// True for a progressive file, whose coefficients libjpeg holds whole (2 bytes a sample).
    var isProgressive: Bool { cinfo.pointee.progressive_mode != 0 }
    /// Bytes a progressive file's coefficients take, as libjpeg allocates them: for each component,
    /// its 8x8 blocks (its sampling factors set how many cover the image, rounded up to whole
    /// MCUs) of 64 two-byte coefficients. About 3 bytes a pixel for 4:2:0 colour, 6 for 4:4:4.
    var coefficientBytes: Int {
        let components = UnsafeBufferPointer(start: cinfo.pointee.comp_info, count: Int(cinfo.pointee.num_components))
        let maxH = max(1, components.map { Int($0.h_samp_factor) }.max() ?? 1)
        let maxV = max(1, components.map { Int($0.v_samp_factor) }.max() ?? 1)
        let size = storedSize
        func blocks(_ pixels: Int, factor: Int, maxFactor: Int) -> Int {
            let covering = (pixels * factor + 8 * maxFactor - 1) / (8 * maxFactor)
            return (covering + factor - 1) / factor * factor
        }
        return components.reduce(0) { total, component in
            let h = max(1, Int(component.h_samp_factor)), v = max(1, Int(component.v_samp_factor))
            return total + blocks(size.width, factor: h, maxFactor: maxH) * blocks(size.height, factor: v, maxFactor: maxV) * 128
        }
    }

    /// Lets libjpeg's large arrays (a progressive file's coefficients) take at most `bytes`; it
    /// fails beyond them. Its row buffers and tables, a few MB at most, come on top: they are
    /// counted against the limit too, so they are given room of their own.
    func limitMemory(to bytes: Int) {
        imgjpeg_set_limits(decoder, Self.maxScans, min(bytes + Self.bufferAllowance, Self.maxDecoderMemory))
    }

    /// Room for libjpeg's allocations besides the coefficients (row buffers of a 65,535-pixel-wide
    /// image, Huffman and colour tables).
    private static let bufferAllowance = 16 << 20

    /// True when the stored colours are CMYK (libjpeg turns YCCK into CMYK).
    var isCMYK: Bool { cinfo.pointee.jpeg_color_space == JCS_CMYK || cinfo.pointee.jpeg_color_space == JCS_YCCK }

    /// True once the data ended before the image did: the file stopped, or a scan ran into EOI.
    var dataEndedEarly: Bool { imgjpeg_data_ended_early(decoder) != 0 }

    /// True when a progressive file's scans stop before every coefficient is complete (its last
    /// scans are missing). Known after `start`, which reads a progressive file whole.
    var coefficientsIncomplete: Bool { imgjpeg_coefficients_incomplete(decoder) != 0 }

    /// True when there are more rows to read.
    var hasMoreRows: Bool { cinfo.pointee.output_scanline < cinfo.pointee.output_height }

    /// Most rows one `readRows` call may return.
    var rowsPerRead: Int { max(1, Int(cinfo.pointee.rec_outbuf_height)) }

    /// Reads the markers up to the first scan, keeping APP1 segments for `exifOrientation` and
    /// APP2 for `colorProfile`.
    func readHeader() throws { try check(imgjpeg_read_header(decoder)) }
    func calcOutputDimensions() throws { try check(imgjpeg_calc_output_dimensions(decoder)) }
    func start() throws { try check(imgjpeg_start(decoder)) }
    /// After `start`, before any row: decodes only `columns` of each output row, widened by
    /// libjpeg to whole iMCUs; returns the columns each row then holds (`outputSize.width` is their
    /// count).
    func cropColumns(_ columns: Range<Int>) throws -> Range<Int> {
        var offset = UInt32(clamping: columns.lowerBound), width = UInt32(clamping: columns.count)
        try check(imgjpeg_crop_columns(decoder, &offset, &width))
        return Int(offset)..<Int(offset) + Int(width)
    }

    /// Skips the next `count` rows (their data is still read, without the IDCT); returns how many
    /// were skipped (fewer at the end of the image).
    func skipRows(_ count: Int) throws -> Int {
        var skipped: UInt32 = 0
        try check(imgjpeg_skip_rows(decoder, UInt32(clamping: count), &skipped))
        return Int(skipped)
    }

    /// Stops decoding, after the last row or early; the decompressor can then be dropped.
    func abort() { imgjpeg_abort(decoder) }

    /// Reads the next rows into `rows` (at most `rows.count`, each `outputSize.width x 4` bytes)
    /// and returns how many arrived.
    func readRows(_ rows: inout [UnsafeMutablePointer<UInt8>?]) throws -> Int {
        var count: Int32 = 0
        try check(imgjpeg_read_rows(decoder, &rows, Int32(rows.count), &count))
        if count == 0 {
            throw ImgCacheError.corruptImage(format: .jpeg, detail: "decoder returned no rows")
        }
        return Int(count)
    }

    /// The orientation in the first APP1 Exif segment that has one.
    func exifOrientation() -> ImageOrientation? {
        segments(marker: 0xE1).lazy.compactMap { EXIFOrientation.orientation(inAPP1: $0) }.first
    }

    /// The colour space of the stored pixels (YCbCr and RGB are RGB; YCCK is CMYK).
    var colorSpace: ColorProfile.ColorSpace {
        if isCMYK { return .cmyk }
        return cinfo.pointee.jpeg_color_space == JCS_GRAYSCALE ? .gray : .rgb
    }

    /// The ICC profile of the APP2 segments, checked against the stored colour space.
    func colorProfile() -> SourceColorProfile {
        do throws(ColorProfile.Malformed) {
            guard let bytes = try JPEGICCChunks.profile(fromAPP2: segments(marker: 0xE2)) else { return .none }
            return SourceColorProfile(iccBytes: bytes, imageColorSpace: colorSpace)
        } catch {
            return .malformed(reason: error.reason)
        }
    }

    /// The payloads of the saved segments of `marker` (APP1 and APP2 are saved), in file order;
    /// valid while the decompressor lives.
    private func segments(marker code: Int) -> [UnsafeRawBufferPointer] {
        var segments: [UnsafeRawBufferPointer] = []
        var marker = cinfo.pointee.marker_list
        while let current = marker {
            if Int(current.pointee.marker) == code, let data = current.pointee.data {
                segments.append(UnsafeRawBufferPointer(start: data, count: Int(current.pointee.data_length)))
            }
            marker = current.pointee.next
        }
        return segments
    }

    private func check(_ status: Int32) throws {
        guard status == 0 else {
            throw ImgCacheError.corruptImage(format: .jpeg, detail: String(cString: imgjpeg_error_message(decoder)))
        }
    }
}
