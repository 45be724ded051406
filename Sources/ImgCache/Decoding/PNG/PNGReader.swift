import CPNG

/// Owns one libpng read struct (through the CPNG shim, which runs every call under setjmp) and
/// turns its failures into `corruptImage` errors carrying libpng's message.
final class PNGReader {
    /// The rows libpng delivers after `setLayout`.
    struct Layout {
        var channels: Int
        var rowBytes: Int
        /// 7 for Adam7, 1 otherwise.
        var passes: Int
    }

    private let decoder: OpaquePointer

    init(_ input: SourceInput) throws {
        guard let decoder = imgpng_decoder_create() else {
            throw ImgCacheError.corruptImage(format: .png, detail: "cannot create a libpng reader")
        }
        self.decoder = decoder
        switch input {
        case .memory(let bytes):
            imgpng_use_memory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        case .file(let file):
            imgpng_use_file(decoder, file)
        }
    }

    deinit { imgpng_decoder_destroy(decoder) }

    /// Reads the signature and the chunks up to the first IDAT.
    func readHeader() throws -> imgpng_header {
        var header = imgpng_header()
        try check(imgpng_read_info(decoder, &header))
        return header
    }

    /// The colour profile of the chunks read by `readHeader` (see `PNGColorChunks`).
    func colorProfile(_ header: imgpng_header) throws -> SourceColorProfile {
        var chunks = imgpng_color_chunks()
        try check(imgpng_get_color_chunks(decoder, &chunks))
        // Colour types 0 and 4: grey, and grey with alpha.
        return PNGColorChunks.profile(chunks, isGray: header.color_type & 2 == 0)
    }

    func setLayout(_ layout: imgpng_layout) throws -> Layout {
        var channels: Int32 = 0
        var rowBytes = 0
        var passes: Int32 = 0
        try check(imgpng_set_layout(decoder, layout, &channels, &rowBytes, &passes))
        return Layout(channels: Int(channels), rowBytes: rowBytes, passes: Int(passes))
    }

    /// Reads the next row into `row` (`Layout.rowBytes` bytes); see `imgpng_read_row` for Adam7.
    func readRow(into row: UnsafeMutablePointer<UInt8>) throws {
        try check(imgpng_read_row(decoder, row))
    }

    /// Reads every pass of an image of `height` rows into `image` (`height x Layout.rowBytes`
    /// bytes), counting in `rowsRead` the row reads that succeeded (passes x height when complete).
    func readImage(into image: UnsafeMutablePointer<UInt8>, height: Int, layout: Layout, rowsRead: inout Int) throws {
        for _ in 0..<layout.passes {
            for y in 0..<height {
                try readRow(into: image + y * layout.rowBytes)
                rowsRead += 1
            }
        }
    }

    /// Reads the chunks after the image data, checking their CRCs and IEND.
    func readEnd() throws {
        try check(imgpng_read_end(decoder))
    }

    private func check(_ status: Int32) throws {
        guard status == 0 else {
            throw ImgCacheError.corruptImage(format: .png, detail: String(cString: imgpng_error_message(decoder)))
        }
    }
}
