import Foundation
import XCTest
@testable import ImgCache

/// Decoding only the columns the outputs read (`jpeg_crop_scanline`) and skipping the rows above
/// them (`jpeg_skip_scanlines`) gives the same pixels, byte for byte, as decoding whole rows: for
/// every chroma subsampling, progressive and grayscale files, crops at the edges and in the middle,
/// at each DCT scale.
final class JPEGRegionDecodeTests: XCTestCase {
    private static let width = 1203, height = 803

    /// A detailed scene as RGB, so that chroma upsampling at a crop edge would show.
    private static let rgb: [UInt8] = {
        let bitmap = TestImages.scene(width: width, height: height, seed: 7)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for index in 0..<width * height {
            for channel in 0..<3 { rgb[index * 3 + channel] = bitmap.pixels[index * 4 + channel] }
        }
        return rgb
    }()

    /// The files: this library's encoder (4:2:0 baseline and progressive, gray), and cjpeg's other
    /// samplings (4:4:4, 4:2:2, 4:4:0) from libjpeg-turbo-progs.
    private func files() throws -> [(String, Data)] {
        var files = [
            ("4:2:0", try TestJPEG.encode(rgb: Self.rgb, width: Self.width, height: Self.height)),
            ("4:2:0 progressive", try TestJPEG.encode(rgb: Self.rgb, width: Self.width, height: Self.height, progressive: true)),
        ]
        let gray = stride(from: 0, to: Self.rgb.count, by: 3).map { Self.rgb[$0] }
        files.append(("gray", try TestJPEG.encode(rgb: gray, width: Self.width, height: Self.height, components: 1)))
        let cjpeg = "/usr/bin/cjpeg"
        guard FileManager.default.isExecutableFile(atPath: cjpeg) else {
            throw XCTSkip("cjpeg (libjpeg-turbo-progs) is not installed: 4:4:4, 4:2:2 and 4:4:0 not checked")
        }
        let ppm = Data("P6\n\(Self.width) \(Self.height)\n255\n".utf8) + Data(Self.rgb)
        for (name, sampling) in [("4:4:4", "1x1"), ("4:2:2", "2x1"), ("4:4:0", "1x2")] {
            files.append((name, try Self.run(cjpeg, ["-quality", "90", "-sample", sampling], input: ppm)))
        }
        return files
    }

    private static func run(_ tool: String, _ arguments: [String], input: Data) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-crop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("in.ppm"), output = folder.appendingPathComponent("out.jpg")
        try input.write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments + ["-outfile", output.path, source.path]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
        return try Data(contentsOf: output)
    }

    /// Targets that read a part of each row or start below the top: narrow and wide centre crops
    /// at each DCT scale, and regions at the edges and inside, resampled or at 1:1; each with
    /// whether its columns are cropped and its top rows skipped.
    private let targets: [(name: String, options: DecodingOptions, cropsColumns: Bool, skipsRows: Bool)] = [
        ("crop 1:3 at 1/1", DecodingOptions(targetSize: PixelSize(width: 130, height: 390), contentMode: .crop), true, false),
        ("crop 1:3 at 1/2", DecodingOptions(targetSize: PixelSize(width: 65, height: 195), contentMode: .crop), true, false),
        ("crop 1:3 at 1/4", DecodingOptions(targetSize: PixelSize(width: 33, height: 99), contentMode: .crop), true, false),
        ("crop 1:3 at 1/8", DecodingOptions(targetSize: PixelSize(width: 15, height: 45), contentMode: .crop), true, false),
        ("crop 4:1 at 1/1", DecodingOptions(targetSize: PixelSize(width: 600, height: 150), contentMode: .crop), false, true),
        ("crop 4:1 at 1/2", DecodingOptions(targetSize: PixelSize(width: 300, height: 75), contentMode: .crop), false, true),
        ("crop 5:1 at 1/4", DecodingOptions(targetSize: PixelSize(width: 150, height: 30), contentMode: .crop), false, true),
        ("left edge", DecodingOptions(targetSize: PixelSize(width: 90, height: 90), sourceRegion: PixelRect(x: 0, y: 100, width: 301, height: 301)), true, true),
        ("right edge", DecodingOptions(targetSize: PixelSize(width: 77, height: 200), sourceRegion: PixelRect(x: 900, y: 3, width: 303, height: 800)), true, false),
        ("bottom edge", DecodingOptions(targetSize: PixelSize(width: 100, height: 50), sourceRegion: PixelRect(x: 0, y: 500, width: 1203, height: 303)), false, true),
        ("inside at 1:1", DecodingOptions(sourceRegion: PixelRect(x: 417, y: 211, width: 155, height: 97)), true, true),
        ("inside at 1/4", DecodingOptions(targetSize: PixelSize(width: 40, height: 40), sourceRegion: PixelRect(x: 333, y: 50, width: 390, height: 390)), true, false),
    ]

    func testCroppedColumnsAndSkippedRowsDecodeToTheSamePixelsAsWholeRows() throws {
        var whole = JPEGDecoder.Settings()
        whole.skipsUnreadPixels = false
        for (file, data) in try files() {
            for target in targets {
                let label = "\(file), \(target.name)"
                let skipping = try decode(data, target.options, JPEGDecoder.Settings())
                let reference = try decode(data, target.options, whole)
                XCTAssertEqual(reference.report.decodedColumns, 0..<reference.report.decodedSize.width, label)
                XCTAssertEqual(reference.report.skippedRows, 0, label)
                let width = skipping.report.decodedSize.width
                XCTAssertEqual(skipping.report.decodedColumns.count < width * 9 / 10, target.cropsColumns, "\(label): columns cropped")
                XCTAssertEqual(skipping.report.skippedRows > 0, target.skipsRows, "\(label): rows skipped")
                XCTAssertEqual(skipping.bitmap.size, reference.bitmap.size, label)
                XCTAssertTrue(skipping.bitmap.pixels == reference.bitmap.pixels, "\(label): pixels differ")
            }
        }
    }

    func testAlmostWholeRowsAreNotCropped() throws {
        let data = try TestJPEG.encode(rgb: Self.rgb, width: Self.width, height: Self.height)
        let report = try decode(data, DecodingOptions(targetSize: PixelSize(width: 300, height: 300)), JPEGDecoder.Settings()).report
        XCTAssertEqual(report.decodedColumns, 0..<report.decodedSize.width, "a fit reads every column")
        XCTAssertNil(JPEGDecoder.columnsWorthCropping(40..<1160, width: 1203), "a crop of under a tenth is not worth it")
        XCTAssertEqual(JPEGDecoder.columnsWorthCropping(401..<802, width: 1203), 369..<834)
        XCTAssertEqual(JPEGDecoder.columnsWorthCropping(0..<300, width: 1203), 0..<332)
    }

    private func decode(_ data: Data, _ options: DecodingOptions, _ settings: JPEGDecoder.Settings) throws
        -> (bitmap: Bitmap, report: JPEGDecoder.Report)
    {
        var bitmap: Bitmap?
        let report = try ImageSource.data(data).withInput { input in
            try JPEGDecoder.decodeReporting(input, options: options, settings: settings) { frame, _ in bitmap = frame.bitmap }
        }
        return (try XCTUnwrap(bitmap), report)
    }
}
