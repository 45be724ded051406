/// Reads the orientation tag (0x0112) from a JPEG APP1 "Exif" segment. Every offset is checked
/// against the segment; anything malformed reads as "no orientation".
enum EXIFOrientation {
    static func orientation(inAPP1 segment: UnsafeRawBufferPointer) -> ImageOrientation? {
        let bytes = Array(segment)
        guard bytes.count >= 14, bytes.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = Array(bytes[6...])
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let a = Int(tiff[offset]), b = Int(tiff[offset + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func read32(_ offset: Int) -> Int? {
            guard let low = read16(littleEndian ? offset : offset + 2),
                  let high = read16(littleEndian ? offset + 2 : offset) else { return nil }
            return high << 16 | low
        }
        guard read16(2) == 42, let ifd = read32(4), let entries = read16(ifd) else { return nil }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = read16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard read16(entry + 2) == 3, let value = read16(entry + 8) else { return nil }
            return ImageOrientation(rawValue: value)
        }
        return nil
    }
}
