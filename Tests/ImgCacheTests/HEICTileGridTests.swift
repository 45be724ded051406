import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// Grids of HEVC tiles decoded a row of tiles at a time (`HEIFTileGrid`, `HEICTileRows`) on
/// phone-like files written by pillow-heif (Tests/Scripts/make_heic.py): the pixels are libheif's
/// own whole-grid decode to RGB, orientation included, resampled targets those of the full decode,
/// the working memory a row of tiles, and damaged containers a typed error.
final class HEICTileGridTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        guard HEIFFixtures.pillowHEIFInstalled else { throw XCTSkip("python3 cannot import pillow_heif (make setup installs it)") }
        folder = try HEIFFixtures.folder()
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private static func grid(_ bytes: [UInt8]) throws -> HEIFTileGrid? {
        try bytes.withUnsafeBytes { try HEIFTileGrid(HEIFContainer($0)) }
    }

    /// libheif 1.15's decode of the whole primary image to interleaved RGB (its grid composed in
    /// RGB), with its transforms when `transformed`.
    private static func libheifWholeDecode(_ bytes: [UInt8], transformed: Bool) throws -> Bitmap {
        try bytes.withUnsafeBytes { raw in
            let image = try HEIFImageHandle.primary(of: raw).decode(chroma: nil, transformed: transformed)
            var pixels = [UInt8](repeating: 0, count: image.size.area * 4)
            pixels.withUnsafeMutableBufferPointer { buffer in
                for y in 0..<image.size.height {
                    image.rgbaRow(y, premultiplied: false, into: buffer.baseAddress! + y * image.size.width * 4)
                }
            }
            return try Bitmap(size: image.size, pixels: pixels)
        }
    }

    private static let fullSize = DecodingOptions(colorPolicy: .ignore)

    /// Fails unless `bitmap` is `expected`, naming the size or the count of bytes that differ.
    private static func assertSame(_ bitmap: Bitmap, _ expected: Bitmap, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        guard bitmap.size == expected.size else {
            return XCTFail("\(message): \(bitmap.size), expected \(expected.size)", file: file, line: line)
        }
        let differing = zip(bitmap.pixels, expected.pixels).filter { $0 != $1 }.count
        XCTAssertEqual(differing, 0, "\(message): bytes that differ", file: file, line: line)
    }

    func testRowsOfTilesAreLibheifsWholeGridDecodePixelForPixel() throws {
        // 1000x700 in 256x256 tiles: the last column and row of tiles are cropped (232 and 188 kept).
        for (width, height, tile, rows, columns) in [(1000, 700, 256, 3, 4), (512, 256, 128, 2, 4)] {
            let path = try HEIFFixtures.phoneHEIC(width: width, height: height, tile: tile, "grid-\(width).heic", in: folder)
            let file = try bytes(path)
            let grid = try XCTUnwrap(Self.grid(file), "\(width)x\(height) is read as a grid of tiles")
            XCTAssertEqual([grid.rows, grid.columns], [rows, columns])
            XCTAssertEqual(grid.tileSize, PixelSize(width: tile, height: tile))
            XCTAssertEqual(grid.outputSize, PixelSize(width: width, height: height))
            XCTAssertEqual(grid.orientation, .up)
            let decoded = try ImageDecoder.decode(.file(path: path), options: Self.fullSize)
            XCTAssertEqual(decoded.size, PixelSize(width: width, height: height))
            Self.assertSame(decoded.frames[0].bitmap, try Self.libheifWholeDecode(file, transformed: true), "\(width)x\(height)")
        }
    }

    func testEveryOrientationOfAGridIsAppliedAsLibheifAppliesIt() throws {
        for orientation in ImageOrientation.allCases {
            let path = try HEIFFixtures.phoneHEIC(
                width: 300, height: 200, tile: 128, orientation: orientation.rawValue, "turned-\(orientation.rawValue).heic", in: folder)
            let file = try bytes(path)
            let grid = try XCTUnwrap(Self.grid(file), "orientation \(orientation.rawValue)")
            XCTAssertEqual(grid.orientation, orientation, "irot/imir of EXIF orientation \(orientation.rawValue)")
            let shown = try ImageDecoder.decode(.file(path: path), options: Self.fullSize)
            // The picture is stored as drawn, 300x200, and shown turned.
            XCTAssertEqual(shown.size, orientation.swapsAxes ? PixelSize(width: 200, height: 300) : PixelSize(width: 300, height: 200))
            XCTAssertEqual(shown.info.orientation, orientation)
            Self.assertSame(shown.frames[0].bitmap, try Self.libheifWholeDecode(file, transformed: true), "orientation \(orientation.rawValue)")
            var storedOptions = Self.fullSize
            storedOptions.appliesOrientation = false
            let stored = try ImageDecoder.decode(.file(path: path), options: storedOptions)
            XCTAssertEqual(stored.info.orientation, .up)
            XCTAssertEqual(stored.size, PixelSize(width: 300, height: 200))
            Self.assertSame(stored.frames[0].bitmap, try Self.libheifWholeDecode(file, transformed: false), "orientation \(orientation.rawValue) stored")
        }
    }

    /// `bitmap` (opaque) resampled for `options` from every one of its rows, as a whole decode would be.
    private static func resampled(_ bitmap: Bitmap, _ options: DecodingOptions) throws -> Bitmap {
        let geometry = try options.geometry(forStoredSize: bitmap.size, orientation: .up)
        let resampler = RowResampler(inputSize: bitmap.size, geometries: [geometry], inputIsOpaque: true)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<bitmap.size.height { resampler.push(row: pixels.baseAddress! + y * bitmap.size.width * 4) }
        }
        return resampler.finish()[0]
    }

    /// Tile rows above the outputs and tile columns beside them are not decoded, and decoding
    /// stops at the last row they read: the targets are still those of the whole picture.
    func testCroppedAndResampledTargetsAreThoseOfTheFullDecode() throws {
        let path = try HEIFFixtures.phoneHEIC(width: 1000, height: 700, tile: 128, "phone.heic", in: folder)
        let full = try ImageDecoder.decode(.file(path: path), options: Self.fullSize).frames[0].bitmap
        let targets: [DecodingOptions] = [
            DecodingOptions(targetSize: PixelSize(width: 90, height: 300), contentMode: .crop, colorPolicy: .ignore),
            DecodingOptions(targetSize: PixelSize(width: 300, height: 40), contentMode: .crop, gravity: .south, colorPolicy: .ignore),
            DecodingOptions(sourceRegion: PixelRect(x: 420, y: 510, width: 200, height: 150), colorPolicy: .ignore),
            DecodingOptions(targetSize: PixelSize(width: 233, height: 233), colorPolicy: .ignore),
        ]
        for options in targets {
            let fromTiles = try ImageDecoder.decode(.file(path: path), options: options).frames[0].bitmap
            Self.assertSame(fromTiles, try Self.resampled(full, options), "\(options.targetSize.map { "\($0)" } ?? "region") \(options.contentMode)")
        }
    }

    /// The working memory is a row of tiles, admitted from the header: a grid is decoded under a
    /// limit that refuses the same picture coded as one image.
    func testWorkingMemoryIsARowOfTiles() throws {
        let path = try HEIFFixtures.phoneHEIC(width: 1000, height: 700, tile: 128, "grid.heic", in: folder)
        let grid = try XCTUnwrap(Self.grid(try bytes(path)))
        let largestTile = grid.tiles.map { $0.data.reduce(0) { $0 + $1.count } }.max() ?? 0
        // A row of 8 tiles in RGB, and two tiles being decoded at 16 bytes a pixel, with two copies of their data.
        XCTAssertEqual(HEICTileRows.workingBytes(for: grid), 128 * 128 * (3 * 8 + 2 * 16) + 2 * 2 * largestTile)
        let limits = DecodingLimits(maxWorkingBytes: 1 << 20)
        let decoded = try ImageDecoder.decode(
            .file(path: path), options: DecodingOptions(targetSize: PixelSize(width: 100, height: 70), limits: limits))
        XCTAssertEqual(decoded.size, PixelSize(width: 100, height: 70))
        let single = try HEIFFixtures.heic(try HEIFFixtures.picture(width: 1000, height: 700), "single.heic", in: folder)
        XCTAssertThrowsError(try ImageDecoder.decode(
            .file(path: single), options: DecodingOptions(targetSize: PixelSize(width: 100, height: 70), limits: limits))) {
            guard case .dimensionsOverLimit = $0 as? ImgCacheError else { return XCTFail("\($0)") }
        }
    }

    private static func assertCorrupt(_ body: @autoclosure () throws -> Any?, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), message, file: file, line: line) {
            guard case .corruptImage(.heic, _) = $0 as? ImgCacheError else { return XCTFail("\(message): \($0)", file: file, line: line) }
        }
    }

    /// `file` with the first item id after the `dimg` reference's header set to `id`.
    private static func withFirstTile(_ file: [UInt8], _ id: UInt16) throws -> [UInt8] {
        var patched = file
        let at = try XCTUnwrap(search(file, "dimg"))
        // 'dimg', from_item_ID and reference_count (16 bits each, iref version 0), then the ids.
        patched[at + 8] = UInt8(id >> 8)
        patched[at + 9] = UInt8(id & 0xFF)
        return patched
    }

    private static func search(_ bytes: [UInt8], _ tag: String) -> Int? {
        let tag = Array(tag.utf8)
        return (0..<bytes.count - tag.count).first { bytes[$0..<$0 + tag.count].elementsEqual(tag) }
    }

    func testDamagedGridsAreTypedErrors() throws {
        let path = try HEIFFixtures.phoneHEIC(width: 256, height: 256, tile: 128, "small.heic", in: folder)
        let file = try bytes(path)
        let gridData = try XCTUnwrap(file.withUnsafeBytes { raw in
            let container = try HEIFContainer(raw)
            return try container.dataRanges(of: container.primaryID)?.first
        })
        // A tile count other than rows x columns: 3x2 tiles, 4 referenced.
        var moreRows = file
        moreRows[gridData.lowerBound + 2] = 2
        Self.assertCorrupt(try Self.grid(moreRows), "a tile count that disagrees with dimg")
        // The most the 8-bit fields give, 256x256 tiles, against 4 references.
        var mostTiles = file
        mostTiles[gridData.lowerBound + 2] = 255
        mostTiles[gridData.lowerBound + 3] = 255
        Self.assertCorrupt(try Self.grid(mostTiles), "256x256 tiles")
        XCTAssertThrowsError(try ImageDecoder.decode(.data(Data(mostTiles)))) { XCTAssertTrue($0 is ImgCacheError, "\($0)") }
        // The grid as its own first tile.
        let primary = try file.withUnsafeBytes { try HEIFContainer($0).primaryID }
        let recursive = try Self.withFirstTile(file, UInt16(primary))
        Self.assertCorrupt(try Self.grid(recursive), "a grid that is its own tile")
        XCTAssertThrowsError(try ImageDecoder.decode(.data(Data(recursive)))) { XCTAssertTrue($0 is ImgCacheError, "\($0)") }
        // A tile whose data lies past the end: the file cut inside `mdat`.
        let cut = Array(file.prefix(file.count - 100))
        Self.assertCorrupt(try Self.grid(cut), "tile data past the end")
        XCTAssertThrowsError(try ImageDecoder.decode(.data(Data(cut)))) { XCTAssertTrue($0 is ImgCacheError, "\($0)") }
        // A tile whose HEVC data is zeros: libheif's error, from whichever thread decoded it.
        var zeroed = file
        let lastTile = try XCTUnwrap(try Self.grid(file)?.tiles.last?.data.first)
        zeroed.replaceSubrange(lastTile, with: repeatElement(0, count: lastTile.count))
        Self.assertCorrupt(try ImageDecoder.decode(.data(Data(zeroed))), "a tile of zeros")
        // An output size (65535x65535, 16-bit fields) that neither its tiles nor its `ispe` give.
        var huge = file
        for offset in 4..<8 { huge[gridData.lowerBound + offset] = 0xFF }
        Self.assertCorrupt(try Self.grid(huge), "a 65535x65535 grid of 2x2 tiles")
        XCTAssertThrowsError(try ImageDecoder.decode(.data(Data(huge)))) { XCTAssertTrue($0 is ImgCacheError, "\($0)") }
    }

    /// Every cut of the `meta` box and every byte of it set to 0xFF or 0x00 reads as a grid, as
    /// not one, or as a `corruptImage` error: never a crash or a read outside the file.
    func testTruncatedAndMangledContainersNeverCrash() throws {
        let path = try HEIFFixtures.phoneHEIC(width: 256, height: 256, tile: 128, "small.heic", in: folder)
        let file = try bytes(path)
        let meta = try XCTUnwrap(Self.search(file, "meta")) - 4
        let metaEnd = meta + file[meta..<meta + 4].reduce(0) { $0 << 8 | Int($1) }
        var outcomes: [String: Int] = [:]
        func read(_ bytes: [UInt8]) {
            do {
                outcomes[try Self.grid(bytes) == nil ? "not a grid" : "grid", default: 0] += 1
            } catch ImgCacheError.corruptImage(.heic, _) {
                outcomes["corrupt", default: 0] += 1
            } catch {
                XCTFail("\(error)")
            }
        }
        for length in meta..<metaEnd { read(Array(file.prefix(length))) }
        for index in meta..<metaEnd {
            for value: UInt8 in [0xFF, 0x00] {
                var mangled = file
                mangled[index] = value
                read(mangled)
            }
        }
        XCTAssertEqual(outcomes.values.reduce(0, +), 3 * (metaEnd - meta))
        XCTAssertGreaterThan(outcomes["corrupt", default: 0], metaEnd - meta, "every cut is corrupt, and some mangled bytes")
        XCTAssertGreaterThan(outcomes["grid", default: 0], 0, "bytes that no reader reads leave a grid")
    }
}
