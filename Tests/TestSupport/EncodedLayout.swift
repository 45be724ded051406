import Foundation

/// What an encoder wrote, read from the bytes: a JPEG's start-of-frame and a PNG's header and
/// chunk lengths, for the encoder control tests.
public enum EncodedLayout {
    /// The marker byte of the JPEG's start-of-frame segment (0xC0 baseline, 0xC2 progressive) and
    /// each component's sampling factors byte (0x22 is 2x2, 0x11 is 1x1); nil when there is none.
    public static func startOfFrame(_ jpeg: Data) -> (marker: UInt8, factors: [UInt8])? {
        let bytes = [UInt8](jpeg)
        var offset = 2
        while offset + 10 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if (0xC0...0xC2).contains(marker) {
                let components = Int(bytes[offset + 9])
                guard offset + 10 + components * 3 <= bytes.count else { return nil }
                return (marker, (0..<components).map { bytes[offset + 11 + $0 * 3] })
            }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return nil
    }

    /// The PNG's IHDR bit depth and colour type, and the data lengths of its chunks by type.
    public static func png(_ png: Data) -> (bitDepth: UInt8, colorType: UInt8, chunkLengths: [String: Int]) {
        let bytes = [UInt8](png)
        var chunks: [String: Int] = [:]
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            chunks[String(decoding: bytes[offset + 4 ..< offset + 8], as: UTF8.self)] = length
            offset += 12 + length
        }
        return (bytes.count > 25 ? bytes[24] : 0, bytes.count > 25 ? bytes[25] : 0, chunks)
    }
}
