import Foundation
import Synchronization
import XCTest
@testable import ImgCache

/// `DecodingOptions.picksPoster`: which frame is kept, its pixels, and where decoding stops.
final class PosterFrameTests: XCTestCase {
    /// 16x16 frames: palette index `left` on the left half, `right` on the right half.
    private static func halves(left: UInt8, right: UInt8) -> [UInt8] {
        (0..<256).map { $0 % 16 < 8 ? left : right }
    }

    private static func decodePoster(_ gif: GIFFile, maxFrames: Int = 50) throws -> DecodedImage {
        try decodePoster(gif.data, maxFrames: maxFrames)
    }

    private static func decodePoster(_ data: Data, maxFrames: Int = 50) throws -> DecodedImage {
        try ImageDecoder.decode(.data(data), options: DecodingOptions(maxFrames: maxFrames, picksPoster: true))
    }

    func testBlankFirstFrameOf300IsSkippedAndTheRestIsNeverDecoded() throws {
        var gif = GIFFile(width: 16, height: 16)
        gif.frame(width: 16, height: 16, pixels: [UInt8](repeating: 0, count: 256))
        for index in 1..<300 {
            gif.control(delay: 4)
            gif.frame(width: 16, height: 16, pixels: index.isMultiple(of: 2) ? Self.halves(left: 1, right: 0) : Self.halves(left: 0, right: 1))
        }
        gif.trailer()
        // Cut inside frame 250: a decode that read that far would fail as truncated.
        let cut = Data(gif.bytes.prefix(gif.bytes.count * 250 / 300))
        XCTAssertThrowsError(try ImageDecoder.decode(.data(cut), options: DecodingOptions(maxFrames: 300)))

        let poster = try Self.decodePoster(cut, maxFrames: 300)
        XCTAssertEqual(poster.info.poster?.index, 1)
        XCTAssertEqual(poster.info.poster?.framesDecoded, 5)
        XCTAssertEqual(poster.frames.count, 1)
        XCTAssertEqual(poster.frames[0].delayCentiseconds, 0)
        let expected = Self.halves(left: 0, right: 1).flatMap { $0 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] as [UInt8] }
        XCTAssertEqual(poster.frames[0].bitmap.pixels, expected)
        XCTAssertEqual(poster.info.poster?.score ?? 0, 127.5, accuracy: 0.01)
    }

    func testFadeInKeepsTheFirstFrameAtFullContrast() throws {
        let levels: [UInt32] = [0, 32, 64, 96, 128, 160, 192, 224, 255]
        var gif = GIFFile(width: 16, height: 16, palette: levels.map { $0 << 16 | $0 << 8 | $0 })
        for step in 0..<levels.count + 6 {
            gif.frame(width: 16, height: 16, pixels: Self.halves(left: 0, right: UInt8(min(step, levels.count - 1))))
        }
        gif.trailer()
        let poster = try Self.decodePoster(gif)
        XCTAssertEqual(poster.info.poster?.index, 8)
        XCTAssertEqual(poster.info.poster?.framesDecoded, 12)
        XCTAssertEqual(poster.frames[0].bitmap.pixels[(8 * 4)..<(8 * 4 + 4)], [255, 255, 255, 255])
    }

    func testEqualFramesTieToFrameZeroAfterThePatience() throws {
        var gif = GIFFile(width: 16, height: 16)
        for _ in 0..<10 { gif.frame(width: 16, height: 16, pixels: Self.halves(left: 0, right: 1)) }
        gif.trailer()
        let poster = try Self.decodePoster(gif)
        XCTAssertEqual(poster.info.poster, PosterChoice(index: 0, framesDecoded: 4, score: 127.5))
    }

    func testAllBlankReadsTheWholeWindowAndKeepsFrameZero() throws {
        var gif = GIFFile(width: 16, height: 16)
        for _ in 0..<12 { gif.frame(width: 16, height: 16, pixels: [UInt8](repeating: 1, count: 256)) }
        gif.trailer()
        XCTAssertEqual(try Self.decodePoster(gif).info.poster, PosterChoice(index: 0, framesDecoded: 12, score: 0))
        XCTAssertEqual(try Self.decodePoster(gif, maxFrames: 7).info.poster?.framesDecoded, 7)
    }

    func testMultiTargetPosterBesideAnAnimation() throws {
        var gif = GIFFile(width: 16, height: 16)
        gif.frame(width: 16, height: 16, pixels: [UInt8](repeating: 0, count: 256))
        for _ in 0..<7 { gif.frame(width: 16, height: 16, pixels: Self.halves(left: 1, right: 0)) }
        gif.trailer()
        let images = Mutex([Int: DecodedImage]())
        try ImageDecoder.decode(
            .data(gif.data), targets: [DecodingOptions(picksPoster: true), DecodingOptions(targetSize: PixelSize(width: 8, height: 8))]
        ) { index, image in images.withLock { $0[index] = image } }
        let poster = try XCTUnwrap(images.withLock { $0[0] }), animation = try XCTUnwrap(images.withLock { $0[1] })
        XCTAssertEqual(poster.frames.count, 1)
        XCTAssertEqual(poster.info.poster?.index, 1)
        XCTAssertEqual(animation.frames.count, 8)
        XCTAssertNil(animation.info.poster)
    }

    func testPosterIsPartOfTheVariantKey() {
        let plain = VariantKey.make(url: "u", pixels: nil, options: DecodingOptions(), format: .automatic)
        let poster = VariantKey.make(url: "u", pixels: nil, options: DecodingOptions(picksPoster: true), format: .automatic)
        XCTAssertEqual(poster, plain + ";poster=1")
    }
}
