import Foundation
import XCTest

@testable import ImgCache

final class RedisCacheValueTests: XCTestCase {
    private let value = RedisCacheValue(
        payload: Data((0..<200).map { UInt8($0 % 251) }), contentType: "image/png", etag: "\"abc\"",
        lastModified: "Tue, 01 Dec 2026 10:00:00 GMT", expiresAt: Date(timeIntervalSince1970: 1_796_000_000.125))

    func testRoundTripKeepsEveryField() throws {
        let frame = try XCTUnwrap(value.encoded())
        XCTAssertEqual(frame.prefix(4), Data("ICRV".utf8))
        XCTAssertEqual(RedisCacheValue(decoding: frame), value)
        let bare = RedisCacheValue(payload: Data(), contentType: nil, etag: nil, lastModified: nil, expiresAt: nil)
        XCTAssertEqual(RedisCacheValue(decoding: try XCTUnwrap(bare.encoded())), bare)
        // A frame in the middle of a larger buffer (a slice with a non-zero start) decodes too.
        let padded = Data([1, 2, 3]) + frame
        XCTAssertEqual(RedisCacheValue(decoding: padded[3...]), value)
    }

    func testEveryTruncationIsRejected() throws {
        let frame = try XCTUnwrap(value.encoded())
        for length in 0..<frame.count {
            XCTAssertNil(RedisCacheValue(decoding: frame.prefix(length)), "truncated to \(length) bytes")
        }
    }

    func testEveryFlippedBitIsRejected() throws {
        let frame = try XCTUnwrap(value.encoded())
        for index in 0..<frame.count {
            for bit in 0..<8 {
                var damaged = frame
                damaged[index] ^= UInt8(1 << bit)
                XCTAssertNil(RedisCacheValue(decoding: damaged), "bit \(bit) of byte \(index) flipped")
            }
        }
    }

    func testWrongMagicVersionAndLengthLiesAreRejected() throws {
        let frame = try XCTUnwrap(value.encoded())
        var magic = frame
        magic.replaceSubrange(0..<4, with: Data("PNG!".utf8))
        XCTAssertNil(RedisCacheValue(decoding: magic))
        var version = frame
        version[4] = 2
        XCTAssertNil(RedisCacheValue(decoding: version))
        for lie: UInt32 in [0, 199, 201, 0xFFFF_FFFF] {
            var lying = frame
            lying.replaceSubrange(5..<9, with: withUnsafeBytes(of: lie.bigEndian) { Data($0) })
            XCTAssertNil(RedisCacheValue(decoding: lying), "length \(lie)")
        }
        XCTAssertNil(RedisCacheValue(decoding: frame + Data([0])), "a trailing byte")
        XCTAssertNil(RedisCacheValue(decoding: Data("not a frame at all, just text".utf8)))
    }

    func testOversizedTextFieldIsNotFramed() {
        var long = value
        long.etag = String(repeating: "e", count: 65_535)
        XCTAssertNil(long.encoded())
    }
}
