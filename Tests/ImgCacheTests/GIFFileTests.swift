import Foundation
import XCTest
@testable import ImgCache

/// Writes GIF files byte by byte, so tests can build exactly the records they need: frames at any
/// position, any disposal, interlaced, with early end codes, damaged or cut short.
///
/// Pixels are LZW-coded with a minimum code size of 8 and a clear code every 253 pixels, so every
/// code is 9 bits and no string table is built (valid, just uncompressed).
struct GIFFile {
    private(set) var bytes: [UInt8]

    /// Colours are 0xRRGGBB; a table is padded with black to a power of two.
    init(width: Int, height: Int, palette: [UInt32]? = [0x000000, 0xFFFFFF], background: UInt8 = 0) {
        bytes = Array("GIF89a".utf8) + Self.word(width) + Self.word(height)
        bytes += [palette.map { 0xF0 | Self.tableBits($0.count) } ?? 0x70, background, 0]
        if let palette { bytes += Self.table(palette) }
    }

    var data: Data { Data(bytes) }

    mutating func loop(_ count: Int, identifier: String = "NETSCAPE2.0") {
        bytes += [0x21, 0xFF, 11] + Array(identifier.utf8) + [3, 1] + Self.word(count) + [0]
    }

    mutating func control(disposal: Int = 0, delay: Int = 0, transparent: Int? = nil) {
        let flags = UInt8(disposal << 2) | (transparent == nil ? 0 : 1)
        bytes += [0x21, 0xF9, 4, flags] + Self.word(delay) + [UInt8(transparent ?? 0), 0]
    }

    mutating func comment(_ text: String) {
        bytes += [0x21, 0xFE] + Self.subBlocks(Array(text.utf8))
    }

    /// An image of `width x height` palette indices given top to bottom (stored in interlace order
    /// when `interlaced`).
    mutating func frame(
        x: Int = 0, y: Int = 0, width: Int, height: Int, pixels: [UInt8], palette: [UInt32]? = nil,
        interlaced: Bool = false
    ) {
        precondition(pixels.count == width * height)
        var stored = pixels
        if interlaced {
            stored = (0..<height).flatMap { index -> ArraySlice<UInt8> in
                let row = GIFDecoder.interlacedRow(index, height: height)
                return pixels[(row * width)..<((row + 1) * width)]
            }
        }
        frame(x: x, y: y, width: width, height: height, lzwData: Self.lzw(stored), palette: palette, interlaced: interlaced)
    }

    /// An image whose LZW stream, after the minimum code size `codeSize`, is `lzwData`, split into
    /// sub-blocks.
    mutating func frame(
        x: Int = 0, y: Int = 0, width: Int, height: Int, lzwData: [UInt8], palette: [UInt32]? = nil,
        interlaced: Bool = false, codeSize: UInt8 = 8
    ) {
        bytes += [0x2C] + Self.word(x) + Self.word(y) + Self.word(width) + Self.word(height)
        var flags: UInt8 = interlaced ? 0x40 : 0
        if let palette { flags |= 0x80 | Self.tableBits(palette.count) }
        bytes.append(flags)
        if let palette { bytes += Self.table(palette) }
        bytes.append(codeSize)
        bytes += Self.subBlocks(lzwData)
    }

    mutating func trailer() { bytes.append(0x3B) }

    mutating func append(_ raw: [UInt8]) { bytes += raw }

    /// The codes for `pixels` followed by the end code, or by nothing when `endCode` is false.
    static func lzw(_ pixels: [UInt8], endCode: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = 0, bits = 0
        func emit(_ code: Int) {
            buffer |= code << bits
            bits += 9
            while bits >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                bits -= 8
            }
        }
        for (index, pixel) in pixels.enumerated() {
            if index % 253 == 0 { emit(256) }
            emit(Int(pixel))
        }
        if endCode { emit(257) }
        if bits > 0 { out.append(UInt8(buffer & 0xFF)) }
        return out
    }

    static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < data.count {
            let end = min(start + 255, data.count)
            out.append(UInt8(end - start))
            out += data[start..<end]
            start = end
        }
        return out + [0]
    }

    private static func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    private static func tableBits(_ count: Int) -> UInt8 {
        var bits = 1
        while 1 << bits < count { bits += 1 }
        return UInt8(bits - 1)
    }

    private static func table(_ colors: [UInt32]) -> [UInt8] {
        let size = 2 << Int(tableBits(colors.count))
        return (colors + Array(repeating: 0, count: size - colors.count))
            .flatMap { [UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
    }
}

/// The test file writer itself: what it writes giflib reads back as written.
final class GIFFileTests: XCTestCase {
    func testWrittenFramesReadBackPixelForPixel() throws {
        var file = GIFFile(width: 3, height: 2, palette: [0xFF0000, 0x00FF00, 0x0000FF])
        file.frame(width: 3, height: 2, pixels: [0, 1, 2, 2, 1, 0])
        file.trailer()
        let image = try ImageDecoder.decode(.data(file.data))
        XCTAssertEqual(image.frames[0].bitmap.pixels, [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
            0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255,
        ])
    }

    func testLongFramesKeepNineBitCodes() throws {
        let pixels = (0..<2000).map { UInt8($0 % 2) }
        var file = GIFFile(width: 2000, height: 1)
        file.frame(width: 2000, height: 1, pixels: pixels)
        file.trailer()
        let bitmap = try ImageDecoder.decode(.data(file.data)).frames[0].bitmap
        XCTAssertEqual(stride(from: 0, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] / 255 }, pixels)
    }
}
