/// URL-safe Base64 (RFC 4648 section 5: `-` and `_` for `+` and `/`) without padding, as imgproxy
/// writes signatures and encoded sources.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The value of each alphabet byte; -1 for every other byte.
    private static let values: [Int8] = {
        var values = [Int8](repeating: -1, count: 256)
        for (index, byte) in alphabet.enumerated() { values[Int(byte)] = Int8(index) }
        return values
    }()

    /// `bytes` encoded, without padding.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var bits = 0, count = 0
        for byte in bytes {
            bits = bits << 8 | Int(byte)
            count += 8
            while count >= 6 {
                count -= 6
                text.append(alphabet[(bits >> count) & 63])
            }
            bits &= (1 << count) - 1
        }
        if count > 0 { text.append(alphabet[(bits << (6 - count)) & 63]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil unless it is canonical unpadded base64url: alphabet bytes
    /// only, a length that is not 1 more than a multiple of 4, and zero bits after the last byte
    /// (so that no two texts decode to the same bytes).
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count * 3 / 4)
        var bits = 0, count = 0
        for character in text {
            let value = values[Int(character)]
            guard value >= 0 else { return nil }
            bits = bits << 6 | Int(value)
            count += 6
            if count >= 8 {
                count -= 8
                bytes.append(UInt8((bits >> count) & 0xFF))
                bits &= (1 << count) - 1
            }
        }
        return bits == 0 ? bytes : nil
    }
}
