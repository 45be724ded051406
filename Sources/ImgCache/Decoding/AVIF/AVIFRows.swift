import CAVIF

/// Converts a decoded AVIF image to 8-bit straight-alpha RGBA with libavif's own conversion (its
/// matrix, range, chroma upsampling and rounding of 10- and 12-bit samples, as `avifdec -d 8`),
/// `rowsPerChunk` rows at a time through a view of the planes, so that no whole RGBA copy is held.
/// Each view reaches `overlap` rows beyond its chunk on either side, so that chroma upsampling sees
/// the rows it would in the whole image and every row converts as it would whole.
struct AVIFRows {
    /// Rows kept from each view: even, so that every view starts on a chroma row.
    static let rowsPerChunk = 64
    /// Rows converted above and below a chunk: two chroma rows of 4:2:0, which bilinear upsampling reads.
    static let overlap = 4

    /// Hands `body` each row of `rows` of `image` (within `columns`, as a pointer to its first
    /// pixel), top to bottom, until `body` returns false.
    static func forEach(
        of image: UnsafeMutablePointer<avifImage>, rows: Range<Int>, columns: Range<Int>,
        _ body: (UnsafeMutablePointer<UInt8>) -> Bool
    ) throws {
        let width = Int(image.pointee.width)
        guard let view = avifImageCreateEmpty() else {
            throw ImgCacheError.corruptImage(format: .avif, detail: "libavif cannot create an image view")
        }
        defer { avifImageDestroy(view) }
        let height = Int(image.pointee.height)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4 * (rowsPerChunk + 2 * overlap))
        defer { buffer.deallocate() }
        var chunkStart = rows.lowerBound & ~1
        while chunkStart < rows.upperBound {
            let chunkRows = min(rowsPerChunk, height - chunkStart)
            let viewStart = max(0, chunkStart - overlap)
            let viewRows = min(height, chunkStart + chunkRows + overlap) - viewStart
            var rect = avifCropRect(x: 0, y: UInt32(viewStart), width: UInt32(width), height: UInt32(viewRows))
            var result = avifImageSetViewRect(view, image, &rect)
            var rgb = avifRGBImage()
            if result == AVIF_RESULT_OK {
                avifRGBImageSetDefaults(&rgb, view)
                rgb.format = AVIF_RGB_FORMAT_RGBA
                rgb.depth = 8
                rgb.pixels = buffer
                rgb.rowBytes = UInt32(width * 4)
                result = avifImageYUVToRGB(view, &rgb)
            }
            guard result == AVIF_RESULT_OK else {
                throw ImgCacheError.corruptImage(
                    format: .avif, detail: "\(String(cString: avifResultToString(result))) while converting rows to RGB")
            }
            for row in max(chunkStart, rows.lowerBound)..<min(chunkStart + chunkRows, rows.upperBound) {
                if !body(buffer + (row - viewStart) * width * 4 + columns.lowerBound * 4) { return }
            }
            chunkStart += chunkRows
        }
    }
}
