/// A primary `grid` item (ISO/IEC 23008-12 6.6.2.3) simple enough to decode a row of tiles at a
/// time: 8-bit HEVC (`hvc1`) tiles of one size, each with its own `hvcC`, `ispe` and at most
/// `colr` and `pixi`, laid out `rows` x `columns` and cropped to `outputSize` on the right and at
/// the bottom; the grid item has no alpha or other auxiliary image and no property beyond `ispe`,
/// `colr`, `pixi`, `irot` and `imir` (the display transforms, as `orientation`).
struct HEIFTileGrid {
    /// One tile: where its HEVC data lies in the file and its property boxes.
    struct Tile {
        let data: [Range<Int>]
        let properties: [HEIFBoxReader.Box]
    }

    let rows: Int
    let columns: Int
    /// The grid's size as stored (before `orientation`).
    let outputSize: PixelSize
    let tileSize: PixelSize
    private(set) var orientation: ImageOrientation
    /// The tiles, row by row.
    let tiles: [Tile]

    /// Tiles with a longer side are left to libheif (phones write 512x512).
    static let maximumTileSide = 1 << 16
    static let gridProperties: Set<String> = ["ispe", "colr", "pixi", "irot", "imir"]
    static let tileProperties: Set<String> = ["hvcC", "ispe", "colr", "pixi"]

    /// The primary image of `container` as a grid of tiles, or nil when it is not a grid or has
    /// anything this does not read (the whole image is then decoded by libheif).
    /// - Throws: `corruptImage` for a grid whose tiles disagree with its header: a tile count
    ///   other than rows x columns, a tile that is the grid itself, data outside the file, tiles
    ///   that do not cover the output size, an `ispe` other than the output size.
    init?(_ container: HEIFContainer) throws {
        let id = container.primaryID
        guard container.itemTypes[id] == "grid",
              !container.references.contains(where: { $0.type == "auxl" && $0.to.contains(id) })
        else { return nil }
        let gridProperties = container.properties(of: id)
        guard gridProperties.allSatisfy({ Self.gridProperties.contains($0.type) }),
              let payload = try container.data(of: id, limit: 12), let header = Self.header(payload)
        else { return nil }
        guard let orientation = try Self.orientation(gridProperties, bytes: container.bytes) else { return nil }
        let tileIDs = container.references("dimg", from: id)
        guard tileIDs.count == header.rows * header.columns else {
            throw ImgCacheError.corruptImage(
                format: .heic, detail: "the grid has \(header.rows)x\(header.columns) tiles but refers to \(tileIDs.count) images")
        }
        guard !tileIDs.contains(id) else { throw ImgCacheError.corruptImage(format: .heic, detail: "the grid is one of its own tiles") }
        var tiles: [Tile] = []
        var tileSize: PixelSize?
        for tileID in tileIDs {
            let properties = container.properties(of: tileID)
            guard container.itemTypes[tileID] == "hvc1", properties.allSatisfy({ Self.tileProperties.contains($0.type) }),
                  let size = try Self.spatialExtent(properties, bytes: container.bytes), size.width <= Self.maximumTileSide,
                  size.height <= Self.maximumTileSide, tileSize == nil || tileSize == size,
                  try Self.isEightBit(properties, bytes: container.bytes),
                  let data = try container.dataRanges(of: tileID)
            else { return nil }
            tileSize = size
            tiles.append(Tile(data: data, properties: properties))
        }
        guard let tileSize else { return nil }
        guard tileSize.width * header.columns >= header.size.width, tileSize.height * header.rows >= header.size.height else {
            throw ImgCacheError.corruptImage(
                format: .heic, detail: "\(header.rows)x\(header.columns) tiles of \(tileSize) do not cover the \(header.size) grid")
        }
        if let extent = try Self.spatialExtent(gridProperties, bytes: container.bytes), extent != header.size {
            throw ImgCacheError.corruptImage(format: .heic, detail: "a grid of \(header.size) whose 'ispe' says \(extent)")
        }
        rows = header.rows
        columns = header.columns
        outputSize = header.size
        self.tileSize = tileSize
        self.orientation = orientation
        self.tiles = tiles
    }

    /// This grid shown as stored: `orientation` `.up`.
    var withoutOrientation: HEIFTileGrid {
        var grid = self
        grid.orientation = .up
        return grid
    }

    /// The rows, columns and output size of a `grid` item's data (version 0; flag 1: 32-bit sizes).
    static func header(_ payload: [UInt8]) -> (rows: Int, columns: Int, size: PixelSize)? {
        guard payload.count >= 8, payload[0] == 0 else { return nil }
        let wide = payload[1] & 1 == 1
        let fieldBytes = wide ? 4 : 2
        guard payload.count >= 4 + 2 * fieldBytes else { return nil }
        func field(at offset: Int) -> Int { payload[offset..<offset + fieldBytes].reduce(0) { $0 << 8 | Int($1) } }
        let size = PixelSize(width: field(at: 4), height: field(at: 4 + fieldBytes))
        guard size.width > 0, size.height > 0 else { return nil }
        return (Int(payload[2]) + 1, Int(payload[3]) + 1, size)
    }

    /// The `ispe` size among `properties`, nil when there is none.
    private static func spatialExtent(_ properties: [HEIFBoxReader.Box], bytes: UnsafeRawBufferPointer) throws -> PixelSize? {
        guard let box = properties.first(where: { $0.type == "ispe" }) else { return nil }
        var reader = HEIFBoxReader(bytes, range: box.payload, context: "ispe")
        _ = try reader.versionAndFlags()
        let size = PixelSize(width: Int(try reader.uint32()), height: Int(try reader.uint32()))
        return size.width > 0 && size.height > 0 ? size : nil
    }

    /// True when the `hvcC` among `properties` codes 8-bit luma and chroma.
    private static func isEightBit(_ properties: [HEIFBoxReader.Box], bytes: UnsafeRawBufferPointer) throws -> Bool {
        guard let box = properties.first(where: { $0.type == "hvcC" }) else { return false }
        var reader = HEIFBoxReader(bytes, range: box.payload, context: "hvcC")
        // HEVCDecoderConfigurationRecord: bit depths minus 8 in the low 3 bits of bytes 17 and 18.
        try reader.skip(17)
        return try reader.uint8() & 7 == 0 && reader.uint8() & 7 == 0
    }

    /// The orientation `irot` and `imir` among `properties` give (`.up` without them); nil when
    /// `imir` comes before `irot`, an order MIAF does not allow.
    private static func orientation(_ properties: [HEIFBoxReader.Box], bytes: UnsafeRawBufferPointer) throws -> ImageOrientation? {
        let rotation = properties.firstIndex { $0.type == "irot" }, mirror = properties.firstIndex { $0.type == "imir" }
        if let rotation, let mirror, mirror < rotation { return nil }
        func lowBits(_ index: Int?, mask: Int) throws -> Int? {
            guard let index else { return nil }
            var reader = HEIFBoxReader(bytes, range: properties[index].payload, context: properties[index].type)
            return try reader.uint8() & mask
        }
        return HEIFTransform.orientation(quarterTurns: try lowBits(rotation, mask: 3) ?? 0, mirrorMode: try lowBits(mirror, mask: 1))
    }
}
