import Foundation
import XCTest
@testable import ImgCache

/// EXIF orientation: read from APP1, applied to the decoded pixels, with the displayed size swapped
/// for 5-8.
final class EXIFOrientationTests: XCTestCase {
    private enum Quadrant: Int, CaseIterable { case topLeft, topRight, bottomLeft, bottomRight }
    private static let colours: [[UInt8]] = [[230, 20, 20], [20, 230, 20], [20, 20, 230], [240, 240, 240]]

    /// 64x32 stored, each 32x16 quadrant one colour (whole 16x16 blocks, so 4:2:0 keeps them apart).
    private static let stored: Data = {
        let width = 64, height = 32
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let quadrant = (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)
                pixels += colours[quadrant]
            }
        }
        return try! TestJPEG.encode(rgb: pixels, width: width, height: height)
    }()

    /// For each orientation, the stored quadrant shown at displayed top-left, top-right,
    /// bottom-left and bottom-right (from the EXIF 2.3 definitions of where row 0 and column 0 go).
    private static let shownQuadrants: [ImageOrientation: [Quadrant]] = [
        .up: [.topLeft, .topRight, .bottomLeft, .bottomRight],
        .upMirrored: [.topRight, .topLeft, .bottomRight, .bottomLeft],
        .down: [.bottomRight, .bottomLeft, .topRight, .topLeft],
        .downMirrored: [.bottomLeft, .bottomRight, .topLeft, .topRight],
        .leftMirrored: [.topLeft, .bottomLeft, .topRight, .bottomRight],
        .right: [.bottomLeft, .topLeft, .bottomRight, .topRight],
        .rightMirrored: [.bottomRight, .topRight, .bottomLeft, .topLeft],
        .left: [.topRight, .bottomRight, .topLeft, .bottomLeft],
    ]

    func testEveryOrientationPlacesPixelsAndSwapsSizeOfNonSquareImage() throws {
        for orientation in ImageOrientation.allCases {
            let decoded = try ImageDecoder.decode(.data(Self.withOrientation(orientation.rawValue)))
            let expectedSize = orientation.swapsAxes ? PixelSize(width: 32, height: 64) : PixelSize(width: 64, height: 32)
            XCTAssertEqual(decoded.info.orientation, orientation)
            XCTAssertEqual(decoded.info.sourceSize, expectedSize, "\(orientation)")
            XCTAssertEqual(decoded.size, expectedSize, "\(orientation)")
            let bitmap = decoded.frames[0].bitmap
            for (corner, quadrant) in zip(Quadrant.allCases, Self.shownQuadrants[orientation]!) {
                let x = corner == .topLeft || corner == .bottomLeft ? bitmap.width / 4 : bitmap.width * 3 / 4
                let y = corner == .topLeft || corner == .topRight ? bitmap.height / 4 : bitmap.height * 3 / 4
                let offset = (y * bitmap.width + x) * 4
                let pixel = bitmap.pixels[offset..<offset + 3].map { Int($0) }
                XCTAssertEqual(pixel, Self.colours[quadrant.rawValue].map { Int($0) }, accuracy: 12,
                               "\(orientation): \(corner) should show stored \(quadrant)")
            }
        }
    }

    func testOrientationIsIgnoredWhenNotApplied() throws {
        let options = DecodingOptions(appliesOrientation: false)
        let decoded = try ImageDecoder.decode(.data(Self.withOrientation(6)), options: options)
        XCTAssertEqual(decoded.info.orientation, .up)
        XCTAssertEqual(decoded.size, PixelSize(width: 64, height: 32))
    }

    func testTargetSizeAppliesToTheDisplayedImage() throws {
        let options = DecodingOptions(targetSize: PixelSize(width: 16, height: 32))
        let decoded = try ImageDecoder.decode(.data(Self.withOrientation(6)), options: options)
        XCTAssertEqual(decoded.size, PixelSize(width: 16, height: 32))
    }

    func testOrientationIsReadFromBigAndLittleEndianTIFF() {
        for littleEndian in [false, true] {
            let segment = Self.exifSegment(orientation: 8, littleEndian: littleEndian)
            XCTAssertEqual(Self.parse(segment), .left, "little endian \(littleEndian)")
        }
    }

    func testMalformedEXIFReadsAsNoOrientation() {
        let valid = Self.exifSegment(orientation: 3, littleEndian: false)
        XCTAssertEqual(Self.parse(valid), .down)
        var badValue = valid
        badValue[6 + 8 + 2 + 8 + 1] = 9  // orientation 9 does not exist
        var badType = valid
        badType[6 + 8 + 2 + 3] = 4  // LONG instead of SHORT
        var farIFD = valid
        farIFD[6 + 7] = 200  // IFD offset past the end
        let cases: [(String, [UInt8])] = [
            ("empty", []), ("no Exif header", Array("XMP\0\0\0".utf8) + valid.dropFirst(6)),
            ("no byte order", Array(valid.prefix(6)) + [0x41, 0x41] + valid.dropFirst(8)),
            ("cut short", Array(valid.prefix(20))), ("value 9", badValue), ("type LONG", badType),
            ("IFD past the end", farIFD),
        ]
        for (name, segment) in cases { XCTAssertNil(Self.parse(segment), name) }
    }

    private static func parse(_ segment: [UInt8]) -> ImageOrientation? {
        segment.withUnsafeBytes { EXIFOrientation.orientation(inAPP1: $0) }
    }

    /// "Exif\0\0", a TIFF header and one IFD holding only the orientation (tag 0x0112, SHORT, 1).
    static func exifSegment(orientation: Int, littleEndian: Bool) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        func u32(_ value: Int) -> [UInt8] {
            littleEndian ? u16(value & 0xFFFF) + u16(value >> 16) : u16(value >> 16) + u16(value & 0xFFFF)
        }
        let byteOrder: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        let entry = u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        return Array("Exif".utf8) + [0, 0] + byteOrder + u16(42) + u32(8) + u16(1) + entry + u32(0)
    }

    private static func withOrientation(_ value: Int) -> Data {
        TestJPEG.inserting(marker: 0xE1, payload: exifSegment(orientation: value, littleEndian: false), into: stored)
    }
}
