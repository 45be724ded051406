import Foundation
import XCTest
@testable import ImgCache
import TestSupport

/// The HEIF/AVIF corpus (`heif-avif/`, its EXPECTED.tsv): every file listed `decode` decodes at
/// full size, with its transforms, to the display size of the reference decoder (libavif 0.11's
/// `avifdec -d 8` for AVIF, libheif 1.15's `heif-convert` for HEIC) and within `minimumPSNR` of
/// its reference PNG (a window of it for large files), alpha included; every file listed `error`
/// is a clean `ImgCacheError`, or a decode that matches the other decoder's `alt_png`.
/// Pixels are compared in the file's own colour space (`ColorPolicy.ignore`), as the references are.
final class HEIFConformanceTests: XCTestCase {
    /// dB a decode must reach against its reference. Both go through the reference decoder's own
    /// library (libavif or libheif), so files are expected to be near exact; the bound leaves
    /// room for the chroma upsampling at the edges of the chunks AVIF rows are converted in.
    static let minimumPSNR = 35.0

    private struct Row {
        let file: String
        let expectsDecode: Bool
        let frame: Int?
        let reference: String?
        let window: PixelRect?
        let displaySize: PixelSize?
        let mode: String
        let fullSHA256: String
        let alternative: String?
        let alternativeWindow: PixelRect?
    }

    func testEveryFileMatchesItsReferenceOrFailsCleanly() throws {
        let folder = try Corpus.folder("heif-avif")
        let rows = try Self.rows(folder.appendingPathComponent("EXPECTED.tsv"))
        var decoded = 0, identical = 0, cleanErrors = 0, alternatives = 0
        var worst = Double.infinity
        for row in rows {
            let source = folder.appendingPathComponent(row.file)
            let options = DecodingOptions(
                maxFrames: (row.frame ?? 0) + 1, frameBudgetBytes: 64 << 20,
                limits: DecodingLimits(maxOutputPixels: 64_000_000, maxWorkingBytes: 512 << 20), colorPolicy: .ignore)
            let result = Result { try ImageDecoder.decode(.file(path: source.path), options: options) }
            guard row.expectsDecode else {
                switch result {
                case .failure(let error):
                    XCTAssertTrue(error is ImgCacheError, "\(row.file): \(error) is not an ImgCacheError")
                    cleanErrors += 1
                case .success(let image):
                    guard let alternative = row.alternative else {
                        XCTFail("\(row.file): decoded, where the reference decoder fails and no other decoder's result is known")
                        continue
                    }
                    let (reference, mode) = try Self.reference(folder, row.file, alternative, mode: nil)
                    let psnr = PSNR.of(Self.window(image.frames[0].bitmap, row.alternativeWindow, mode: mode), reference)
                    XCTAssertGreaterThanOrEqual(psnr, Self.minimumPSNR, "\(row.file) against \(alternative)")
                    alternatives += 1
                }
                continue
            }
            let image: DecodedImage
            switch result {
            case .failure(let error):
                XCTFail("\(row.file): \(error)")
                continue
            case .success(let value): image = value
            }
            let frame = image.frames[row.frame ?? 0].bitmap
            XCTAssertEqual(frame.size, row.displaySize, row.file)
            guard let referenceName = row.reference, frame.size == row.displaySize else { continue }
            let (reference, _) = try Self.reference(folder, row.file, referenceName, mode: row.mode)
            let psnr = PSNR.of(Self.window(frame, row.window, mode: row.mode), reference)
            XCTAssertGreaterThanOrEqual(psnr, Self.minimumPSNR, "\(row.file)\(row.frame.map { " frame \($0)" } ?? "")")
            worst = min(worst, psnr)
            decoded += 1
            if try Corpus.sha256(Self.samples(frame, mode: row.mode)) == row.fullSHA256 {
                identical += 1
            } else {
                print("HEIF/AVIF conformance: \(row.file)\(row.frame.map { " frame \($0)" } ?? "") \(String(format: "%.1f", psnr)) dB")
            }
        }
        Corpus.report("HEIF/AVIF conformance", [
            "decoded": decoded, "bit-identical to the reference": identical, "clean errors": cleanErrors,
            "matching another decoder": alternatives, "listed": rows.count,
        ])
        print("HEIF/AVIF conformance: worst PSNR \(String(format: "%.1f", worst)) dB")
        XCTAssertEqual(rows.count, 55)
        XCTAssertEqual(decoded + cleanErrors + alternatives, rows.count)
    }

    /// irot/imir are an orientation, applied unless told not to (`--no-rotate`), as EXIF's is.
    func testTransformsAreLeftAloneWithoutOrientation() throws {
        let rotated = try Corpus.file("heif-avif/av1-avif/Link-U/kimono.mirror-vertical.rotate270.avif")
        let turned = try ImageDecoder.decode(.file(path: rotated.path))
        XCTAssertEqual(turned.size, PixelSize(width: 722, height: 1024))
        XCTAssertEqual(turned.info.orientation, .leftMirrored)
        let stored = try ImageDecoder.decode(.file(path: rotated.path), options: DecodingOptions(appliesOrientation: false))
        XCTAssertEqual(stored.size, PixelSize(width: 1024, height: 722))
        XCTAssertEqual(stored.info.orientation, .up)
        XCTAssertEqual(stored.frames[0].bitmap.oriented(.leftMirrored), turned.frames[0].bitmap)
        let inspection = try ImageDecoder.inspect(.file(path: rotated.path))
        XCTAssertEqual(inspection.size, PixelSize(width: 722, height: 1024))
        XCTAssertEqual(inspection.orientation, .leftMirrored)
    }

    /// The corpus's HEIC grid (2x2 tiles of 480x320) is decoded a row of tiles at a time, to every
    /// pixel of heif-convert's whole-grid decode (EXPECTED.tsv's `full_sha256`).
    func testHEICGridIsDecodedByRowsOfTilesBitIdenticalToHeifConvert() throws {
        let name = "nokia/overlay_grid_alpha/grid_960x640.heic"
        let folder = try Corpus.folder("heif-avif")
        let row = try XCTUnwrap(try Self.rows(folder.appendingPathComponent("EXPECTED.tsv")).first { $0.file == name })
        let file = folder.appendingPathComponent(name)
        let bytes = try Data(contentsOf: file)
        let grid = try XCTUnwrap(try bytes.withUnsafeBytes { try HEIFTileGrid(HEIFContainer($0)) })
        XCTAssertEqual([grid.rows, grid.columns], [2, 2])
        XCTAssertEqual(grid.tileSize, PixelSize(width: 480, height: 320))
        let decoded = try ImageDecoder.decode(.file(path: file.path), options: DecodingOptions(colorPolicy: .ignore))
        XCTAssertEqual(try Corpus.sha256(Self.samples(decoded.frames[0].bitmap, mode: row.mode)), row.fullSHA256)
    }

    /// An `avis` sequence keeps its first frames with their delays (1001/24000 s each, 4 hundredths).
    func testSequenceKeepsItsFirstFramesWithDelays() throws {
        let file = try Corpus.file("heif-avif/av1-avif/Netflix/avis/Chimera-AV1-10bit-480x270.avif")
        let inspection = try ImageDecoder.inspect(.file(path: file.path))
        XCTAssertEqual(inspection.frameCount, 95)
        let decoded = try ImageDecoder.decode(
            .file(path: file.path), options: DecodingOptions(targetSize: PixelSize(width: 240, height: 240), maxFrames: 3))
        XCTAssertEqual(decoded.frames.count, 3)
        XCTAssertEqual(decoded.size, PixelSize(width: 240, height: 135))
        XCTAssertEqual(decoded.frames.map(\.delayCentiseconds), [4, 4, 4])
        XCTAssertEqual(decoded.info.loopCount, 0)
    }

    /// The samples of `bitmap` as the reference stores them: L (the red channel of a gray image),
    /// RGB or RGBA rows.
    private static func samples(_ bitmap: Bitmap, mode: String) -> [UInt8] {
        switch mode {
        case "L": return stride(from: 0, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] }
        case "RGB": return stride(from: 0, to: bitmap.pixels.count, by: 4).flatMap { bitmap.pixels[$0..<$0 + 3] }
        default: return bitmap.pixels
        }
    }

    /// The samples of the `window` of `bitmap` (all of it when nil), as `samples(_:mode:)`.
    private static func window(_ bitmap: Bitmap, _ window: PixelRect?, mode: String) -> [UInt8] {
        guard let window else { return samples(bitmap, mode: mode) }
        var cut = Bitmap(size: window.size)
        for y in 0..<window.height {
            let from = ((window.y + y) * bitmap.size.width + window.x) * 4
            cut.pixels.replaceSubrange(y * window.width * 4..<(y + 1) * window.width * 4, with: bitmap.pixels[from..<from + window.width * 4])
        }
        return samples(cut, mode: mode)
    }

    /// The reference PNG `name` beside `file`, decoded by ImgCache's PNG decoder, as samples of
    /// `mode` (when nil: RGBA when any pixel is translucent, RGB otherwise), and that mode.
    private static func reference(_ folder: URL, _ file: String, _ name: String, mode: String?) throws -> ([UInt8], String) {
        let url = folder.appendingPathComponent(file).deletingLastPathComponent().appendingPathComponent(name)
        let bitmap = try ImageDecoder.decode(.file(path: url.path), options: DecodingOptions(colorPolicy: .ignore)).frames[0].bitmap
        let mode = mode ?? (stride(from: 3, to: bitmap.pixels.count, by: 4).allSatisfy { bitmap.pixels[$0] == 255 } ? "RGB" : "RGBA")
        return (samples(bitmap, mode: mode), mode)
    }

    private static func rows(_ url: URL) throws -> [Row] {
        func rect(_ text: Substring) -> PixelRect? {
            let numbers = text.split(separator: ",").compactMap { Int($0) }
            return numbers.count == 4 ? PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]) : nil
        }
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let name = fields[0].split(separator: "#")
            let sides = fields[4].split(separator: "x").compactMap { Int($0) }
            return Row(
                file: String(name[0]), expectsDecode: fields[1] == "decode",
                frame: name.count > 1 ? Int(name[1].dropFirst("frame".count)) : nil,
                reference: fields[2] == "-" ? nil : String(fields[2]), window: rect(fields[3]),
                displaySize: sides.count == 2 ? PixelSize(width: sides[0], height: sides[1]) : nil, mode: String(fields[5]),
                fullSHA256: String(fields[7]), alternative: fields[9] == "-" ? nil : String(fields[9]), alternativeWindow: rect(fields[10]))
        }
    }
}
