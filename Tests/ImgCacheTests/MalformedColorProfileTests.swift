import Foundation
import XCTest
@testable import ImgCache

/// A profile that cannot be used is ignored: the image decodes as sRGB (its pixels as stored, as
/// under `.ignore`), and the decode and the inspection say why.
final class MalformedColorProfileTests: XCTestCase {
    private let bitmap = TestImages.scene(width: 48, height: 32)

    /// An untagged JPEG with `payloads` as APP2 segments right after SOI.
    private func jpeg(app2 payloads: [[UInt8]]) throws -> Data {
        let plain = try JPEGEncoder.encode(bitmap)
        var segments: [UInt8] = []
        for payload in payloads {
            let length = payload.count + 2
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        return plain.prefix(2) + Data(segments) + plain.dropFirst(2)
    }

    /// An ICC_PROFILE APP2 payload: sequence number, count, part of a profile.
    private func chunk(_ sequence: UInt8, of count: UInt8, _ part: ArraySlice<UInt8>) -> [UInt8] {
        JPEGICCChunks.signature + [sequence, count] + part
    }

    /// `profile` as ICC_PROFILE payloads of at most 60,000 bytes of it each.
    private func chunks(_ profile: [UInt8]) -> [[UInt8]] {
        let parts = stride(from: 0, to: profile.count, by: 60_000).map { profile[$0..<min($0 + 60_000, profile.count)] }
        return parts.enumerated().map { chunk(UInt8($0.offset + 1), of: UInt8(parts.count), $0.element) }
    }

    private func assertIgnored(_ data: Data, reasonContains text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let decoded = try ImageDecoder.decode(.data(data))
        guard case .malformed(let reason) = decoded.info.colorProfile else {
            return XCTFail("not malformed: \(decoded.info.colorProfile)", file: file, line: line)
        }
        XCTAssertTrue(reason.contains(text), reason, file: file, line: line)
        XCTAssertEqual(decoded.frames, try ImageDecoder.decode(.data(data), options: DecodingOptions(colorPolicy: .ignore)).frames,
                       file: file, line: line)
        XCTAssertEqual(try ImageDecoder.inspect(.data(data)).colorProfile, decoded.info.colorProfile, file: file, line: line)
    }

    func testChunksSplitOverSeveralSegmentsAreReassembled() throws {
        let p3 = ColorFixtures.displayP3
        let third = p3.count / 3
        let data = try jpeg(app2: [chunk(2, of: 3, p3[third..<(2 * third)]), chunk(1, of: 3, p3[..<third]), chunk(3, of: 3, p3[(2 * third)...])])
        XCTAssertEqual(try ImageDecoder.decode(.data(data)).info.colorProfile.profile?.iccBytes, p3)
    }

    func testMissingDuplicatedAndMiscountedChunksAreIgnored() throws {
        let p3 = ColorFixtures.displayP3
        let half = p3.count / 2
        try assertIgnored(try jpeg(app2: [chunk(1, of: 2, p3[..<half])]), reasonContains: "segment 2 of 2 is missing")
        try assertIgnored(
            try jpeg(app2: [chunk(1, of: 2, p3[..<half]), chunk(1, of: 2, p3[..<half]), chunk(2, of: 2, p3[half...])]),
            reasonContains: "appears twice")
        try assertIgnored(try jpeg(app2: [chunk(1, of: 2, p3[..<half]), chunk(2, of: 3, p3[half...])]), reasonContains: "disagree")
        try assertIgnored(try jpeg(app2: [chunk(0, of: 1, p3[...])]), reasonContains: "not in 1...1")
    }

    func testTruncatedProfileAndBadTagTableAreIgnored() throws {
        let p3 = ColorFixtures.displayP3
        try assertIgnored(try jpeg(app2: [chunk(1, of: 1, p3.prefix(p3.count / 2))]), reasonContains: "profile")
        var badTable = p3
        badTable[128...131] = [0, 0, 0x03, 0xE8] // 1000 tags, past the profile's end
        try assertIgnored(try jpeg(app2: [chunk(1, of: 1, badTable[...])]), reasonContains: "cannot read")
    }

    func testProfileOfAnotherColourSpaceIsIgnored() throws {
        try assertIgnored(try jpeg(app2: chunks(ColorFixtures.grayGamma18)), reasonContains: "a GRAY profile on a RGB image")
        if let cmyk = ColorFixtures.ghostscriptCMYK {
            try assertIgnored(try jpeg(app2: chunks(cmyk)), reasonContains: "a CMYK profile on a RGB image")
        }
    }
}
