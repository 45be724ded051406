import Foundation

/// An original or a variant as stored in Redis: its bytes with the HTTP metadata the local disk
/// cache keeps beside them, in a frame whose tag is checked before anything in it is read.
///
/// ```
/// magic "ICRV" (4 bytes) | version 2 (1) | check (1): 1 CRC-32, 2 HMAC-SHA256 | payload length (UInt32 BE)
/// | etag | last-modified | content type      each: UInt16 BE length (0xFFFF: none), UTF-8
/// | grace (Int64 BE milliseconds; Int64.min: never stale) | payload
/// | tag: CRC-32 (UInt32 BE) or HMAC-SHA256 (32 bytes) of every byte before it (see `RedisValueSeal`)
/// ```
/// The frame holds no wall-clock time: a value's freshness is its key's remaining TTL (PTTL, as
/// Redis counts it) minus its grace, the part of the TTL the writer added after the end of its
/// freshness, so that instances whose clocks differ agree on it.
///
/// A value that fails its tag (damaged, truncated, longer, written under another secret or none,
/// or copied from another key), has another magic, version or check, or a length that does not
/// match, does not decode: it is a miss, overwritten by the next store. Version 1 frames (an
/// absolute expiry and a CRC-32 in the header) are such misses.
struct RedisCacheValue: Sendable, Equatable {
    var payload: Data
    var contentType: String?
    var etag: String?
    var lastModified: String?
    /// How much of its key's TTL is left when the value stops being fresh (the writer's grace
    /// period), in milliseconds; nil when it never goes stale.
    var graceMilliseconds: Int64?

    static let magic = Data("ICRV".utf8)
    static let version: UInt8 = 2
    private static let absent: UInt16 = 0xFFFF
    private static let neverStale = Int64.min

    /// The first bytes of the frame of a payload of `payloadCount` bytes sealed by `seal`: magic,
    /// version, check and payload length; nil when the payload is over 4 GiB.
    static func header(payloadCount: Int, seal: RedisValueSeal) -> Data? {
        guard let length = UInt32(exactly: payloadCount) else { return nil }
        var header = magic
        header.append(version)
        header.append(seal.kind)
        header.append(bigEndian: length)
        return header
    }

    /// The frame of this value under `key`, tagged by `seal`; nil when the payload is over 4 GiB, a
    /// text field over 65,534 bytes, or the grace `Int64.min`.
    func encoded(key: String, seal: RedisValueSeal) -> Data? {
        guard var frame = Self.header(payloadCount: payload.count, seal: seal), graceMilliseconds != Self.neverStale else {
            return nil
        }
        for text in [etag, lastModified, contentType] {
            guard let text else {
                frame.append(bigEndian: Self.absent)
                continue
            }
            guard let count = UInt16(exactly: text.utf8.count), count != Self.absent else { return nil }
            frame.append(bigEndian: count)
            frame.append(contentsOf: text.utf8)
        }
        frame.append(bigEndian: graceMilliseconds ?? Self.neverStale)
        frame.append(payload)
        guard let tag = seal.tag(of: frame, key: key) else { return nil }
        frame.append(tag)
        return frame
    }

    /// The value framed in `data` under `key`; nil unless its tag verifies under `seal` and every
    /// other check passes. Nothing but the tag is read before the tag is verified.
    init?(decoding data: Data, key: String, seal: RedisValueSeal) {
        let frame = Data(data)  // indices from 0
        guard seal.verifies(frame, key: key) else { return nil }
        var reader = FrameReader(frame.prefix(frame.count - seal.tagLength))
        guard reader.take(4) == Self.magic, reader.byte() == Self.version, reader.byte() == seal.kind,
              let length = reader.uint32()
        else { return nil }
        var texts: [String?] = []
        for _ in 0..<3 {
            guard let count = reader.uint16() else { return nil }
            if count == Self.absent {
                texts.append(nil)
                continue
            }
            guard let bytes = reader.take(Int(count)) else { return nil }
            texts.append(String(decoding: bytes, as: UTF8.self))
        }
        guard let grace = reader.int64(), reader.remaining == Int(length), let payload = reader.take(Int(length))
        else { return nil }
        self.payload = payload
        etag = texts[0]
        lastModified = texts[1]
        contentType = texts[2]
        graceMilliseconds = grace == Self.neverStale ? nil : grace
    }

    init(payload: Data, contentType: String?, etag: String?, lastModified: String?, graceMilliseconds: Int64?) {
        self.payload = payload
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.graceMilliseconds = graceMilliseconds
    }

    /// When the value stops being fresh, by the clock that reads `now`, given that its key has
    /// `keyMilliseconds` left to live: nil when it never goes stale.
    func expiresAt(keyMilliseconds: Int64, now: Date) -> Date? {
        graceMilliseconds.map { now.addingTimeInterval(Double(keyMilliseconds - $0) / 1000) }
    }
}

/// Reads big-endian fields from the front of a frame, never past its end.
private struct FrameReader {
    private let data: Data
    private var offset = 0

    init(_ data: Data) { self.data = data }

    var remaining: Int { data.count - offset }

    mutating func take(_ count: Int) -> Data? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return data.subdata(in: offset..<(offset + count))
    }

    mutating func byte() -> UInt8? { take(1)?.first }
    mutating func uint16() -> UInt16? { take(2).map { UInt16(Self.integer($0)) } }
    mutating func uint32() -> UInt32? { take(4).map { UInt32(Self.integer($0)) } }
    mutating func int64() -> Int64? { take(8).map { Int64(bitPattern: Self.integer($0)) } }

    private static func integer(_ bytes: Data) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}

private extension Data {
    mutating func append<Integer: FixedWidthInteger>(bigEndian value: Integer) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
