/// Redis Cluster's hash slots: a key's slot is the CRC16 (XMODEM) of its hash tag, modulo
/// 16384, as in Redis's cluster specification. The hash tag is what stands between the first
/// `{` and the first `}` after it when that is not empty; otherwise the whole key.
enum RedisHashSlot {
    /// The number of hash slots of a cluster.
    static let count = 16_384

    /// The hash slot of `key`'s bytes (0 to 16383).
    static func slot(of key: some Collection<UInt8>) -> Int {
        Int(crc16(hashTag(of: key))) & (count - 1)
    }

    /// The slot of a key given as text (its UTF-8 bytes).
    static func slot(of key: String) -> Int {
        slot(of: Array(key.utf8))
    }

    /// The part of `key` that is hashed: between the first `{` and the next `}` when both are
    /// there with at least one byte between them, else the whole key.
    static func hashTag<Key: Collection<UInt8>>(of key: Key) -> Key.SubSequence {
        guard let open = key.firstIndex(of: UInt8(ascii: "{")) else { return key[...] }
        let rest = key[key.index(after: open)...]
        guard let close = rest.firstIndex(of: UInt8(ascii: "}")), close != rest.startIndex else { return key[...] }
        return rest[..<close]
    }

    /// CRC16-CCITT as XMODEM computes it (polynomial 0x1021, initial value 0, no reflection):
    /// "123456789" gives 0x31C3.
    static func crc16(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
            }
        }
        return crc
    }
}
