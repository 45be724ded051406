/// A HEIC file of one image made in memory from a grid's tile, for libheif 1.15 to decode it
/// alone (it has no call to decode one tile of a grid): `ftyp` (heic, mif1), `meta` with `hdlr`
/// pict, `pitm`, `iloc` (one extent, in `mdat`), `iinf` (one `hvc1` item) and `iprp` (the
/// tile's own property boxes, copied, all essential), then `mdat` with the tile's HEVC data.
enum HEIFTileFile {
    /// The file for `tile` of the file in `bytes`.
    /// - Throws: `corruptImage` when the tile's data is over 4 GiB (a 32-bit box).
    static func make(_ tile: HEIFTileGrid.Tile, of bytes: UnsafeRawBufferPointer) throws -> [UInt8] {
        let dataLength = tile.data.reduce(0) { $0 + $1.count }
        guard dataLength <= Int(UInt32.max) - 8 else {
            throw ImgCacheError.corruptImage(format: .heic, detail: "a tile of \(dataLength) bytes")
        }
        let ftyp = box("ftyp", Array("heic".utf8) + word(0) + Array("mif1heic".utf8))
        let hdlr = fullBox("hdlr", word(0) + Array("pict".utf8) + word(0) + word(0) + word(0) + [0])
        let pitm = fullBox("pitm", half(1))
        let infe = fullBox("infe", version: 2, half(1) + half(0) + Array("hvc1".utf8) + [0])
        let iinf = fullBox("iinf", half(1) + infe)
        let properties = tile.properties.flatMap { Array(UnsafeRawBufferPointer(rebasing: bytes[$0.whole])) }
        guard tile.properties.count < 0x80 else {
            throw ImgCacheError.corruptImage(format: .heic, detail: "a tile with \(tile.properties.count) properties")
        }
        let ipma = fullBox("ipma", word(1) + half(1) + [UInt8(tile.properties.count)]
            + (0..<tile.properties.count).map { 0x80 | UInt8($0 + 1) })
        let iprp = box("iprp", box("ipco", properties) + ipma)
        // iloc version 0: 4-byte offsets and lengths, no base offset; the offset is filled in below.
        func iloc(offset: Int) -> [UInt8] {
            fullBox("iloc", [0x44, 0x00] + half(1) + half(1) + half(0) + half(1) + word(offset) + word(dataLength))
        }
        func meta(offset: Int) -> [UInt8] { fullBox("meta", hdlr + pitm + iloc(offset: offset) + iinf + iprp) }
        let dataOffset = ftyp.count + meta(offset: 0).count + 8
        var file = ftyp + meta(offset: dataOffset) + word(8 + dataLength) + Array("mdat".utf8)
        file.reserveCapacity(file.count + dataLength)
        for range in tile.data { file += UnsafeRawBufferPointer(rebasing: bytes[range]) }
        return file
    }

    private static func word(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    private static func half(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        word(8 + payload.count) + Array(type.utf8) + payload
    }

    private static func fullBox(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }
}
