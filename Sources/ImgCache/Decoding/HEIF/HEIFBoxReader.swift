/// Reads big-endian fields and ISOBMFF boxes from a range of a HEIF file, never past its end:
/// every read that would leave the range throws `corruptImage` naming `context`.
struct HEIFBoxReader {
    /// A box: its four-character type, the bytes of the whole box (header included) and of its payload.
    struct Box {
        let type: String
        let whole: Range<Int>
        let payload: Range<Int>
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int
    let end: Int
    let context: String

    /// A reader of `range` of `bytes` (clamped to them), naming `context` (a box type) in errors.
    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, context: String) {
        self.bytes = bytes
        offset = max(0, min(range.lowerBound, bytes.count))
        end = max(offset, min(range.upperBound, bytes.count))
        self.context = context
    }

    var remaining: Int { end - offset }

    /// An unsigned big-endian field of `byteCount` bytes (0 reads 0, as `iloc` fields of size 0 do).
    mutating func unsigned(_ byteCount: Int) throws -> UInt64 {
        guard (0...8).contains(byteCount) else { throw corrupt("a field of \(byteCount) bytes") }
        try require(byteCount)
        var value: UInt64 = 0
        for index in 0..<byteCount { value = value << 8 | UInt64(bytes[offset + index]) }
        offset += byteCount
        return value
    }

    mutating func uint8() throws -> Int { Int(try unsigned(1)) }
    mutating func uint16() throws -> Int { Int(try unsigned(2)) }
    mutating func uint32() throws -> UInt32 { UInt32(try unsigned(4)) }

    /// An item id of 16 bits (`wide` false) or 32.
    mutating func itemID(wide: Bool) throws -> UInt32 { wide ? try uint32() : UInt32(try uint16()) }

    mutating func fourCC() throws -> String {
        try require(4)
        defer { offset += 4 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]), as: UTF8.self)
    }

    /// A full box's version and flags.
    mutating func versionAndFlags() throws -> (version: Int, flags: Int) {
        let word = try unsigned(4)
        return (Int(word >> 24), Int(word & 0xFF_FFFF))
    }

    mutating func skip(_ count: Int) throws {
        try require(count)
        offset += count
    }

    /// Skips a NUL-terminated string (or the rest of the range when it has no NUL).
    mutating func skipString() {
        while offset < end {
            defer { offset += 1 }
            if bytes[offset] == 0 { return }
        }
    }

    /// The next box, or nil at the end of the range; a box whose size is too small or runs past
    /// the range throws. Size 1 is a 64-bit size, size 0 a box to the end of the range.
    mutating func nextBox() throws -> Box? {
        guard offset < end else { return nil }
        let start = offset
        let size = try unsigned(4)
        let type = try fourCC()
        let length: UInt64
        switch size {
        case 0: length = UInt64(end - start)
        case 1: length = try unsigned(8)
        default: length = size
        }
        let header = offset - start
        guard length >= UInt64(header), length <= UInt64(end - start) else {
            throw corrupt("a '\(type)' box of \(length) bytes where \(end - start) remain")
        }
        offset = start + Int(length)
        return Box(type: type, whole: start..<offset, payload: start + header..<offset)
    }

    /// The `corruptImage` error for `what` in this reader's box.
    func corrupt(_ what: String) -> ImgCacheError {
        .corruptImage(format: .heic, detail: "\(what) in the '\(context)' box")
    }

    private func require(_ count: Int) throws {
        guard count >= 0, count <= end - offset else { throw corrupt("\(count) bytes needed past the end at \(offset)") }
    }
}
