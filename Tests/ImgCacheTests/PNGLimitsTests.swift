import Foundation
import XCTest
@testable import ImgCache

/// Decompression bombs: declared sizes refused from the header, compressed chunks never inflated
/// without bound.
final class PNGLimitsTests: XCTestCase {
    func testDeclared65535x65535IsRefusedBeforeAllocating() {
        let size = PixelSize(width: 65535, height: 65535)
        // A valid header and a tiny IDAT: one filter byte and one pixel of a row that would need 256 KiB.
        let png = TestPNG.file(header: TestPNG.header(size: size), chunks: [("IDAT", TestPNG.storedZlib([0, 1, 2, 3, 4]))])
        for options in [DecodingOptions(), DecodingOptions(acceptsTruncatedData: true)] {
            XCTAssertThrowsError(try ImageDecoder.decode(.data(png), options: options)) { error in
                XCTAssertEqual(error as? ImgCacheError,
                               .dimensionsOverLimit(width: 65535, height: 65535, limit: DecodingLimits().maxPixelsPerFrame))
            }
        }
        XCTAssertThrowsError(try PNGDecoder.decodeExpanded(.data(png))) { error in
            guard case ImgCacheError.dimensionsOverLimit = error else { return XCTFail("\(error)") }
        }
    }

    func testConfiguredPixelLimitRefusesLargerImages() {
        let png = TestPNG.make(size: PixelSize(width: 20, height: 10), rgba: [UInt8](repeating: 200, count: 800))
        let options = DecodingOptions(limits: DecodingLimits(maxPixelsPerFrame: 199))
        XCTAssertThrowsError(try ImageDecoder.decode(.data(png), options: options)) { error in
            XCTAssertEqual(error as? ImgCacheError, .dimensionsOverLimit(width: 20, height: 10, limit: 199))
        }
    }

    /// 1x1 image behind zTXt, iTXt and iCCP chunks that each inflate to 100 MB of zeros (as
    /// Pillow's png_decompression_dos.png): text chunks are skipped unread, and libpng stops
    /// inflating any other ancillary chunk at the 8 MiB chunk limit, so the image decodes at once.
    func testCompressedChunkBombsAreNotInflated() throws {
        let bomb = Self.zerosZlib(count: 100_000_000)
        let chunks: [(String, [UInt8])] = [
            ("zTXt", Array("Comment".utf8) + [0, 0] + bomb),
            ("iTXt", Array("Comment".utf8) + [0, 1, 0, 0, 0] + bomb),
            ("iCCP", Array("bomb".utf8) + [0, 0] + bomb),
        ]
        let png = TestPNG.make(size: PixelSize(width: 1, height: 1), rgba: [10, 20, 30, 255], chunks: chunks)
        let started = Date()
        let decoded = try ImageDecoder.decode(.data(png))
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.0)
        XCTAssertEqual(decoded.frames[0].bitmap.pixels, [10, 20, 30, 255])
    }

    /// A zlib stream of about `count` zero bytes (1 + a multiple of 258): one literal 0, then
    /// fixed-Huffman matches of length 258 at distance 1, 13 bits each.
    private static func zerosZlib(count: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.write(1, bits: 1)  // final block
        writer.write(1, bits: 2)  // fixed Huffman codes
        writer.writeCode(0b0011_0000, length: 8)  // literal 0
        for _ in 0..<(count - 1) / 258 {
            writer.writeCode(0b1100_0101, length: 8)  // length code 285: 258
            writer.writeCode(0, length: 5)  // distance code 0: 1
        }
        writer.writeCode(0, length: 7)  // end of block
        let produced = 1 + (count - 1) / 258 * 258
        let adler = UInt32(produced % 65521) << 16 | 1
        return [0x78, 0x01] + writer.bytes + TestPNG.bigEndian(adler)
    }

    /// Deflate's bit order: values least significant bit first, Huffman codes most significant first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 8

        mutating func write(_ value: Int, bits: Int) {
            for bit in 0..<bits { append((value >> bit) & 1) }
        }

        mutating func writeCode(_ code: Int, length: Int) {
            for bit in (0..<length).reversed() { append((code >> bit) & 1) }
        }

        private mutating func append(_ bit: Int) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8(bit << used)
            used += 1
        }
    }
}
