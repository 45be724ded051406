import CDeflate
import Foundation
import XCTest

@testable import ImgCache

final class RedisCacheValueTests: XCTestCase {
    private let value = RedisCacheValue(
        payload: Data((0..<200).map { UInt8($0 % 251) }), contentType: "image/png", etag: "\"abc\"",
        lastModified: "Tue, 01 Dec 2026 10:00:00 GMT", graceMilliseconds: 86_400_000)
    private let key = "imgcache:o:0123456789abcdef0123456789abcdef"
    private let crc = RedisValueSeal(secret: nil)
    private let hmac = RedisValueSeal(secret: Data("a secret of 32 bytes, not random".utf8))

    func testRoundTripKeepsEveryField() throws {
        for seal in [crc, hmac] {
            let frame = try XCTUnwrap(value.encoded(key: key, seal: seal))
            XCTAssertEqual(frame.prefix(6), Data("ICRV".utf8) + Data([2, seal.kind]))
            XCTAssertEqual(RedisCacheValue(decoding: frame, key: key, seal: seal), value)
            let bare = RedisCacheValue(payload: Data(), contentType: nil, etag: nil, lastModified: nil, graceMilliseconds: nil)
            XCTAssertEqual(RedisCacheValue(decoding: try XCTUnwrap(bare.encoded(key: key, seal: seal)), key: key, seal: seal), bare)
            // A frame in the middle of a larger buffer (a slice with a non-zero start) decodes too.
            let padded = Data([1, 2, 3]) + frame
            XCTAssertEqual(RedisCacheValue(decoding: padded[3...], key: key, seal: seal), value)
        }
        XCTAssertEqual(try XCTUnwrap(value.encoded(key: key, seal: hmac)).count, try XCTUnwrap(value.encoded(key: key, seal: crc)).count + 28)
    }

    func testTheHMACIsOverTheWholeFrameAndTheKey() throws {
        let frame = try XCTUnwrap(value.encoded(key: key, seal: hmac))
        // Its last 32 bytes are HMAC-SHA256(secret, key length | key | the rest), as openssl computes it.
        var message = withUnsafeBytes(of: UInt32(key.utf8.count).bigEndian) { Data($0) }
        message.append(contentsOf: key.utf8)
        message.append(frame.prefix(frame.count - 32))
        XCTAssertEqual(frame.suffix(32), try Self.opensslHMAC(message, key: Data("a secret of 32 bytes, not random".utf8)))
        // Another key, another secret, no secret: misses.
        XCTAssertNil(RedisCacheValue(decoding: frame, key: "imgcache:o:ffffffffffffffffffffffffffffffff", seal: hmac))
        XCTAssertNil(RedisCacheValue(decoding: frame, key: key, seal: RedisValueSeal(secret: Data(repeating: 7, count: 32))))
        XCTAssertNil(RedisCacheValue(decoding: frame, key: key, seal: crc))
        // A frame with a valid CRC-32, which anyone who can write to Redis can make, is refused under a secret.
        XCTAssertNil(RedisCacheValue(decoding: try XCTUnwrap(value.encoded(key: key, seal: crc)), key: key, seal: hmac))
    }

    func testEveryTruncationIsRejected() throws {
        for seal in [crc, hmac] {
            let frame = try XCTUnwrap(value.encoded(key: key, seal: seal))
            for length in 0..<frame.count {
                XCTAssertNil(RedisCacheValue(decoding: frame.prefix(length), key: key, seal: seal), "truncated to \(length) bytes")
            }
        }
    }

    func testEveryFlippedBitIsRejected() throws {
        for seal in [crc, hmac] {
            let frame = try XCTUnwrap(value.encoded(key: key, seal: seal))
            for index in 0..<frame.count {
                for bit in 0..<8 {
                    var damaged = frame
                    damaged[index] ^= UInt8(1 << bit)
                    XCTAssertNil(RedisCacheValue(decoding: damaged, key: key, seal: seal), "bit \(bit) of byte \(index) flipped")
                }
            }
        }
    }

    func testWrongMagicVersionAndLengthLiesAreRejectedEvenWithAValidTag() throws {
        let frame = try XCTUnwrap(value.encoded(key: key, seal: hmac))
        /// `frame` with `change` made to its body and a new valid tag.
        func retagged(_ change: (inout Data) -> Void) throws -> Data {
            var body = frame.prefix(frame.count - 32)
            change(&body)
            return body + (try XCTUnwrap(hmac.tag(of: body, key: key)))
        }
        XCTAssertEqual(RedisCacheValue(decoding: try retagged { _ in }, key: key, seal: hmac), value)
        XCTAssertNil(RedisCacheValue(decoding: try retagged { $0.replaceSubrange(0..<4, with: Data("PNG!".utf8)) }, key: key, seal: hmac))
        XCTAssertNil(RedisCacheValue(decoding: try retagged { $0[4] = 1 }, key: key, seal: hmac), "version 1")
        XCTAssertNil(RedisCacheValue(decoding: try retagged { $0[5] = 1 }, key: key, seal: hmac), "a CRC-32 check byte")
        for lie: UInt32 in [0, 199, 201, 0xFFFF_FFFF] {
            let lying = try retagged { $0.replaceSubrange(6..<10, with: withUnsafeBytes(of: lie.bigEndian) { Data($0) }) }
            XCTAssertNil(RedisCacheValue(decoding: lying, key: key, seal: hmac), "length \(lie)")
        }
        XCTAssertNil(RedisCacheValue(decoding: try retagged { $0.append(0) }, key: key, seal: hmac), "a byte after the payload")
        XCTAssertNil(RedisCacheValue(decoding: frame + Data([0]), key: key, seal: hmac), "a trailing byte")
        XCTAssertNil(RedisCacheValue(decoding: Data("not a frame at all, just text".utf8), key: key, seal: hmac))
    }

    func testVersionOneFramesAreMisses() throws {
        // The frame of version 1: magic, version 1, payload length, CRC-32, the texts, an absolute
        // expiry, the payload; its CRC-32 over every byte but its own.
        var frame = Data("ICRV".utf8) + Data([1]) + Self.bigEndian(UInt32(value.payload.count)) + Data(count: 4)
        for text in [value.etag, value.lastModified, value.contentType] {
            let bytes = Data(try XCTUnwrap(text).utf8)
            frame += Self.bigEndian(UInt16(bytes.count)) + bytes
        }
        frame += Self.bigEndian(Int64(1_796_000_000_125)) + value.payload
        let crc = frame.withUnsafeBytes { bytes in
            libdeflate_crc32(libdeflate_crc32(0, bytes.baseAddress, 9), bytes.baseAddress! + 13, bytes.count - 13)
        }
        frame.replaceSubrange(9..<13, with: Self.bigEndian(crc))
        XCTAssertNil(RedisCacheValue(decoding: frame, key: key, seal: self.crc))
        XCTAssertNil(RedisCacheValue(decoding: frame, key: key, seal: hmac))
    }

    func testOversizedTextFieldIsNotFramed() {
        var long = value
        long.etag = String(repeating: "e", count: 65_535)
        XCTAssertNil(long.encoded(key: key, seal: crc))
    }

    func testExpiryIsTheKeysRemainingTTLLessTheGrace() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        XCTAssertEqual(value.expiresAt(keyMilliseconds: 86_460_000, now: now), now.addingTimeInterval(60))
        XCTAssertEqual(value.expiresAt(keyMilliseconds: 86_000_000, now: now), now.addingTimeInterval(-400))
        var never = value
        never.graceMilliseconds = nil
        XCTAssertNil(never.expiresAt(keyMilliseconds: 5000, now: now))
    }

    private static func bigEndian<Integer: FixedWidthInteger>(_ value: Integer) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    /// HMAC-SHA256 of `message` under `key` by `openssl dgst`, a second implementation.
    private static func opensslHMAC(_ message: Data, key: Data) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-hmac-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("message"), output = folder.appendingPathComponent("tag")
        try message.write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        let hexKey = key.map { String(format: "%02x", $0) }.joined()
        process.arguments = ["dgst", "-sha256", "-mac", "HMAC", "-macopt", "hexkey:\(hexKey)", "-binary", "-out", output.path, input.path]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return try Data(contentsOf: output)
    }
}
