/// The items of a HEIF file's `meta` box (ISO/IEC 23008-12 over ISO/IEC 14496-12), read without
/// libheif so that a grid's tiles can be decoded one at a time: the primary item (`pitm`), each
/// item's type (`iinf`/`infe` versions 2 and 3), where its data lies (`iloc` versions 0-2, in the
/// file or the `idat` box), its references (`iref`) and its properties (`iprp`: `ipco` and `ipma`).
///
/// Every field is hostile: counts are bounded by the bytes that hold them, offsets and lengths
/// are checked against the file when an item's data is asked for, and malformed boxes throw
/// `corruptImage`. Nothing is decoded.
struct HEIFContainer {
    /// An item reference of `type` (`dimg`, `thmb`, `auxl`...) from one item to others, in order.
    struct Reference {
        let type: String
        let from: UInt32
        let to: [UInt32]
    }

    /// Where an item's data lies: its extents, absolute in the file, or in the `idat` box.
    private struct Location {
        let inIDAT: Bool
        let extents: [(offset: UInt64, length: UInt64)]
    }

    /// Extents read from `iloc` in all: more is refused, whatever sizes the box gives its fields.
    static let maximumExtents = 1 << 16

    let bytes: UnsafeRawBufferPointer
    private(set) var primaryID: UInt32 = 0
    private(set) var itemTypes: [UInt32: String] = [:]
    private(set) var references: [Reference] = []
    /// The boxes of `ipco`, in order (`ipma` numbers them from 1).
    private(set) var properties: [HEIFBoxReader.Box] = []
    /// Each item's properties as indices into `properties`, in the order `ipma` lists them.
    private(set) var associations: [UInt32: [Int]] = [:]
    private var locations: [UInt32: Location] = [:]
    private var idat: Range<Int>?

    /// The container of the file in `bytes` (which must outlive it).
    /// - Throws: `corruptImage` when there is no `meta` box, or a box in it is malformed.
    init(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes = bytes
        var file = HEIFBoxReader(bytes, range: 0..<bytes.count, context: "file")
        var meta: HEIFBoxReader.Box?
        while let box = try file.nextBox() {
            if box.type == "meta" {
                meta = box
                break
            }
        }
        guard let meta else { throw ImgCacheError.corruptImage(format: .heic, detail: "the file has no 'meta' box") }
        var reader = HEIFBoxReader(bytes, range: meta.payload, context: "meta")
        _ = try reader.versionAndFlags()
        var hasPrimary = false
        while let box = try reader.nextBox() {
            var payload = HEIFBoxReader(bytes, range: box.payload, context: box.type)
            switch box.type {
            case "pitm":
                let (version, _) = try payload.versionAndFlags()
                primaryID = try payload.itemID(wide: version > 0)
                hasPrimary = true
            case "iinf": try readItemInfo(&payload)
            case "iloc": try readLocations(&payload)
            case "iref": try readReferences(&payload)
            case "iprp": try readProperties(&payload)
            case "idat": idat = box.payload
            default: break
            }
        }
        guard hasPrimary else { throw ImgCacheError.corruptImage(format: .heic, detail: "the 'meta' box has no 'pitm'") }
    }

    /// The properties of item `id` with their boxes, in `ipma` order.
    func properties(of id: UInt32) -> [HEIFBoxReader.Box] {
        (associations[id] ?? []).map { properties[$0] }
    }

    /// The items `id` refers to by references of `type`, in order.
    func references(_ type: String, from id: UInt32) -> [UInt32] {
        references.filter { $0.type == type && $0.from == id }.flatMap(\.to)
    }

    /// The byte ranges of `bytes` holding item `id`'s data, in order: nil when `iloc` does not
    /// place it in this file (another file, or `construction_method` 2).
    /// - Throws: `corruptImage` when an extent lies outside the file (or the `idat` box).
    func dataRanges(of id: UInt32) throws -> [Range<Int>]? {
        guard let location = locations[id] else { return nil }
        let area = location.inIDAT ? idat : 0..<bytes.count
        guard let area else { throw ImgCacheError.corruptImage(format: .heic, detail: "item \(id) lies in an 'idat' box the file lacks") }
        return try location.extents.map { extent in
            // A length of 0 is the rest of the data the offset points into.
            let size = UInt64(area.count)
            let length = extent.length == 0 ? size &- extent.offset : extent.length
            guard extent.offset <= size, length <= size - extent.offset else {
                throw ImgCacheError.corruptImage(
                    format: .heic, detail: "item \(id)'s data (\(extent.length) bytes at \(extent.offset)) lies past the end of the file")
            }
            let start = area.lowerBound + Int(extent.offset)
            return start..<start + Int(length)
        }
    }

    /// Copies of the first `limit` bytes of item `id`'s data (its extents joined); nil as for `dataRanges(of:)`.
    func data(of id: UInt32, limit: Int) throws -> [UInt8]? {
        guard let ranges = try dataRanges(of: id) else { return nil }
        var data: [UInt8] = []
        for range in ranges where data.count < limit {
            data += UnsafeRawBufferPointer(rebasing: bytes[range.prefix(limit - data.count)])
        }
        return data
    }

    private mutating func readItemInfo(_ reader: inout HEIFBoxReader) throws {
        let (version, _) = try reader.versionAndFlags()
        _ = version == 0 ? try reader.uint16() : Int(try reader.uint32())
        while let box = try reader.nextBox() {
            guard box.type == "infe" else { continue }
            var entry = HEIFBoxReader(bytes, range: box.payload, context: "infe")
            let (entryVersion, _) = try entry.versionAndFlags()
            // Versions 0 and 1 predate item types: such items are none of the ones read here.
            guard entryVersion >= 2 else { continue }
            let id = try entry.itemID(wide: entryVersion >= 3)
            _ = try entry.uint16()  // item_protection_index
            itemTypes[id] = try entry.fourCC()
        }
    }

    private mutating func readLocations(_ reader: inout HEIFBoxReader) throws {
        let (version, _) = try reader.versionAndFlags()
        guard version <= 2 else { throw reader.corrupt("version \(version)") }
        let sizes = try reader.uint16()
        let offsetSize = sizes >> 12, lengthSize = sizes >> 8 & 0xF, baseOffsetSize = sizes >> 4 & 0xF
        let indexSize = version == 0 ? 0 : sizes & 0xF
        for size in [offsetSize, lengthSize, baseOffsetSize, indexSize] where ![0, 4, 8].contains(size) {
            throw reader.corrupt("a field size of \(size) bytes")
        }
        let count = version < 2 ? try reader.uint16() : Int(try reader.uint32())
        var extentsRead = 0
        for _ in 0..<count {
            let id = try reader.itemID(wide: version == 2)
            let constructionMethod = version == 0 ? 0 : try reader.uint16() & 0xF
            let dataReference = try reader.uint16()
            let baseOffset = try reader.unsigned(baseOffsetSize)
            let extentCount = try reader.uint16()
            extentsRead += extentCount
            guard extentsRead <= Self.maximumExtents else { throw reader.corrupt("more than \(Self.maximumExtents) extents") }
            var extents: [(offset: UInt64, length: UInt64)] = []
            for _ in 0..<extentCount {
                _ = try reader.unsigned(indexSize)
                let (offset, overflow) = baseOffset.addingReportingOverflow(try reader.unsigned(offsetSize))
                guard !overflow else { throw reader.corrupt("an offset past 2^64") }
                extents.append((offset, try reader.unsigned(lengthSize)))
            }
            if dataReference == 0 && constructionMethod < 2 {
                locations[id] = Location(inIDAT: constructionMethod == 1, extents: extents)
            }
        }
    }

    private mutating func readReferences(_ reader: inout HEIFBoxReader) throws {
        let (version, _) = try reader.versionAndFlags()
        while let box = try reader.nextBox() {
            var entry = HEIFBoxReader(bytes, range: box.payload, context: box.type)
            let from = try entry.itemID(wide: version > 0)
            let count = try entry.uint16()
            var to: [UInt32] = []
            for _ in 0..<count { to.append(try entry.itemID(wide: version > 0)) }
            references.append(Reference(type: box.type, from: from, to: to))
        }
    }

    private mutating func readProperties(_ reader: inout HEIFBoxReader) throws {
        while let box = try reader.nextBox() {
            var payload = HEIFBoxReader(bytes, range: box.payload, context: box.type)
            if box.type == "ipco" {
                while let property = try payload.nextBox() { properties.append(property) }
            } else if box.type == "ipma" {
                try readAssociations(&payload)
            }
        }
        for (id, indices) in associations where indices.contains(where: { $0 >= properties.count }) {
            throw ImgCacheError.corruptImage(format: .heic, detail: "item \(id) has a property past the \(properties.count) of 'ipco'")
        }
    }

    private mutating func readAssociations(_ reader: inout HEIFBoxReader) throws {
        let (version, flags) = try reader.versionAndFlags()
        let count = try reader.uint32()
        for _ in 0..<count {
            let id = try reader.itemID(wide: version > 0)
            let associationCount = try reader.uint8()
            var indices: [Int] = []
            for _ in 0..<associationCount {
                let index = flags & 1 == 1 ? try reader.uint16() & 0x7FFF : try reader.uint8() & 0x7F
                // Index 0 is "no property".
                if index > 0 { indices.append(index - 1) }
            }
            associations[id, default: []] += indices
        }
    }
}
