import CDeflate
import Foundation

/// An original or a variant as stored in Redis: its bytes with the HTTP metadata the local disk
/// cache keeps beside them, in a frame that is checked whole before use.
///
/// ```
/// magic "ICRV" (4 bytes) | version 1 (1) | payload length (UInt32 BE) | CRC-32 (UInt32 BE)
/// | etag | last-modified | content type      each: UInt16 BE length (0xFFFF: none), UTF-8
/// | expiry (Int64 BE milliseconds since 1970; Int64.min: none) | payload
/// ```
/// The CRC-32 (libdeflate's) covers every byte but its own four. A value that is truncated,
/// has another magic or version, a length that does not match, or a wrong checksum does not
/// decode: it is a miss, overwritten by the next store.
struct RedisCacheValue: Sendable, Equatable {
    var payload: Data
    var contentType: String?
    var etag: String?
    var lastModified: String?
    /// When the value stops being fresh (millisecond precision), nil for never.
    var expiresAt: Date?

    static let magic = Data("ICRV".utf8)
    static let version: UInt8 = 1
    /// Bytes before the metadata: magic, version, payload length, checksum.
    static let headerLength = 13
    private static let checksumOffset = 9
    private static let absent: UInt16 = 0xFFFF
    private static let noExpiry = Int64.min

    /// The framed bytes; nil when the payload is over 4 GiB or a text field over 65,534 bytes.
    func encoded() -> Data? {
        guard let length = UInt32(exactly: payload.count) else { return nil }
        var frame = Self.magic
        frame.append(Self.version)
        frame.append(bigEndian: length)
        frame.append(bigEndian: UInt32(0))
        for text in [etag, lastModified, contentType] {
            guard let text else {
                frame.append(bigEndian: Self.absent)
                continue
            }
            guard let count = UInt16(exactly: text.utf8.count), count != Self.absent else { return nil }
            frame.append(bigEndian: count)
            frame.append(contentsOf: text.utf8)
        }
        frame.append(bigEndian: expiresAt.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? Self.noExpiry)
        frame.append(payload)
        let checksum = Self.checksum(frame)
        frame.replaceSubrange(Self.checksumOffset..<(Self.checksumOffset + 4), with: withUnsafeBytes(of: checksum.bigEndian) { Data($0) })
        return frame
    }

    /// The value framed in `data`; nil unless every check passes.
    init?(decoding data: Data) {
        let frame = Data(data)  // indices from 0
        var reader = FrameReader(frame)
        guard reader.take(4) == Self.magic, reader.byte() == Self.version,
              let length = reader.uint32(), let checksum = reader.uint32(),
              checksum == Self.checksum(frame)
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
        guard let milliseconds = reader.int64(), reader.remaining == Int(length),
              let payload = reader.take(Int(length))
        else { return nil }
        self.payload = payload
        etag = texts[0]
        lastModified = texts[1]
        contentType = texts[2]
        expiresAt = milliseconds == Self.noExpiry ? nil : Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    init(payload: Data, contentType: String?, etag: String?, lastModified: String?, expiresAt: Date?) {
        self.payload = payload
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.expiresAt = expiresAt
    }

    /// True when `expiresAt` is set and not after `date`.
    func isExpired(at date: Date = Date()) -> Bool {
        expiresAt.map { $0 <= date } ?? false
    }

    /// CRC-32 of `frame` without its checksum field (the frame must be at least a header long).
    private static func checksum(_ frame: Data) -> UInt32 {
        guard frame.count >= headerLength else { return 0 }
        return frame.withUnsafeBytes { bytes in
            let before = libdeflate_crc32(0, bytes.baseAddress, checksumOffset)
            return libdeflate_crc32(before, bytes.baseAddress! + headerLength, bytes.count - headerLength)
        }
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
