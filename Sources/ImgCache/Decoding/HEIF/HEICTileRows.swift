import Dispatch

/// Decodes a `HEIFTileGrid` one row of tiles at a time into a `RowResampler`: each tile is made a
/// file of its own (`HEIFTileFile`) and decoded by libheif to planar 8-bit RGB, as libheif 1.15's
/// own grid decoding converts each tile (so the pixels are those of a whole-grid decode to RGB);
/// the tiles of a row are decoded `decodingThreads` at a time, the row's rows joined, cropped to
/// the grid's output size, and pushed; then the row of tiles is freed. Tile rows above the first row the outputs read and tile columns outside the
/// columns they read are not decoded; decoding stops once the outputs are complete.
///
/// Memory: the file (mapped) and one row of decoded tiles (`workingBytes(for:)`), whatever the
/// image's height.
struct HEICTileRows {
    let grid: HEIFTileGrid
    let bytes: UnsafeRawBufferPointer

    /// Bytes a tile pixel costs while its tile is decoded beside the row kept: the HEVC decoder's
    /// pictures, the YCbCr planes libheif copies out and converts (measured with libde265 on
    /// phone-like 512x512 tiles: peak heap 10.5 MB for a 4032x3024 grid decoded one tile at a
    /// time, 6.3 MB of it the row kept; 11.1 MB two at a time, and 18.4 MB for 8064x6048).
    static let tileDecodingBytesPerPixel = 16

    /// Tiles of a row decoded at once (HEVC decoding is most of the time a decode takes).
    static let decodingThreads = 2

    /// The memory a decode of `grid` holds at most: its row of tiles as planar RGB (3 bytes a
    /// pixel), and for each of `decodingThreads` a tile being decoded, its file and libheif's copy
    /// of its data.
    static func workingBytes(for grid: HEIFTileGrid) -> Int {
        let tileArea = grid.tileSize.area
        let largestTile = grid.tiles.map { $0.data.reduce(0) { $0 + $1.count } }.max() ?? 0
        let (row, rowOverflow) = tileArea.multipliedReportingOverflow(by: 3 * grid.columns)
        let (tile, tileOverflow) = tileArea.multipliedReportingOverflow(by: tileDecodingBytesPerPixel * decodingThreads)
        guard !rowOverflow, !tileOverflow else { return Int.max }
        return row.addingReportingOverflow(tile).partialValue + 2 * decodingThreads * largestTile
    }

    /// Pushes the grid's rows (as stored, before `grid.orientation`) that `resampler` needs, each
    /// converted by `colorTransform` first.
    /// - Throws: `corruptImage` when libheif cannot decode a tile or a tile is not of the grid's tile size.
    func push(into resampler: RowResampler, colorTransform: ColorTransform?) throws {
        let width = grid.outputSize.width, tileWidth = grid.tileSize.width, tileHeight = grid.tileSize.height
        let needed = resampler.columnsNeeded
        let tileColumns = needed.lowerBound / tileWidth..<min(grid.columns, (needed.upperBound + tileWidth - 1) / tileWidth)
        let columns = tileColumns.lowerBound * tileWidth..<min(width, tileColumns.upperBound * tileWidth)
        if columns != resampler.pushedColumns { resampler.narrowRows(to: columns) }
        let firstTileRow = resampler.firstRowNeeded / tileHeight
        resampler.skipRows(firstTileRow * tileHeight)
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: columns.count * 4)
        defer { row.deallocate() }
        for tileRow in firstTileRow..<grid.rows where !resampler.isComplete {
            let tiles = try decodeTiles(tileColumns.map { grid.tiles[tileRow * grid.columns + $0] })
            let rowCount = min(tileHeight, grid.outputSize.height - tileRow * tileHeight)
            for y in 0..<rowCount where !resampler.isComplete {
                for (tile, column) in zip(tiles, tileColumns) {
                    let left = column * tileWidth
                    tile.rgbaRow(y, premultiplied: false, into: row + (left - columns.lowerBound) * 4, width: min(tileWidth, width - left))
                }
                colorTransform?.apply(to: row, width: columns.count)
                resampler.push(row: row)
            }
        }
    }

    /// Decodes `tiles` on `decodingThreads` threads at once, each tile with its own libheif
    /// context and HEVC decoder; the first tile's error is thrown.
    private func decodeTiles(_ tiles: [HEIFTileGrid.Tile]) throws -> [HEIFDecodedImage] {
        var results = [Result<HEIFDecodedImage, any Error>](
            repeating: .failure(ImgCacheError.corruptImage(format: .heic, detail: "a tile was not decoded")), count: tiles.count)
        let threads = min(Self.decodingThreads, tiles.count)
        results.withUnsafeMutableBufferPointer { results in
            // Each result is written by one thread; the file and the tiles are only read.
            nonisolated(unsafe) let slots = results
            nonisolated(unsafe) let rows = self
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in stride(from: thread, to: tiles.count, by: threads) {
                    slots[index] = Result { try rows.decodeTile(tiles[index]) }
                }
            }
        }
        return try results.map { try $0.get() }
    }

    private func decodeTile(_ tile: HEIFTileGrid.Tile) throws -> HEIFDecodedImage {
        let file = try HEIFTileFile.make(tile, of: bytes)
        let image = try file.withUnsafeBytes { file in try HEIFImageHandle.primary(of: file).decodeRGBPlanes() }
        guard image.size == grid.tileSize else {
            throw ImgCacheError.corruptImage(format: .heic, detail: "a tile decodes to \(image.size), not the \(grid.tileSize) of its 'ispe'")
        }
        return image
    }
}
