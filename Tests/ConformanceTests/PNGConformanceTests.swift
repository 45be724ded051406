import Foundation
import XCTest
@testable import ImgCache

/// PngSuite and image-png's extra files: every valid file decodes to the CRC32 the png crate
/// records (libpng expand + strip-16 layout); every `x` file is rejected with a typed error.
final class PNGConformanceTests: XCTestCase {
    func testPngSuiteDecodesToReferenceCRCsAndRejectsCorruptFiles() throws {
        let folder = try Corpus.folder("pngsuite")
        try checkSuite(
            images: folder.appendingPathComponent("images"),
            expected: folder.appendingPathComponent("expected/image-png_results.txt"),
            prefix: "tests/pngsuite/", suite: "PngSuite", expectedFailures: 14)
    }

    func testPngExtraDecodesToReferenceCRCsAndRejectsCorruptFiles() throws {
        let folder = try Corpus.folder("png-extra/image-png")
        let expected = try Self.expectations(folder.appendingPathComponent("expected_results.txt"))
        var matched = 0, rejected = 0
        for group in ["bugfixes", "pngsuite-extra"] {
            for file in try Corpus.files(in: folder.appendingPathComponent(group), suffix: ".png") {
                // A file named x_* must fail even where the expectations file does not list it.
                let listed = expected["tests/\(group)/\(file.lastPathComponent)"]
                let value = file.lastPathComponent.hasPrefix("x_") ? nil : listed ?? nil
                if try check(file: file, expected: value) { matched += 1 } else { rejected += 1 }
            }
        }
        Corpus.report("png-extra", ["matched CRC": matched, "rejected": rejected])
        XCTAssertEqual(matched, 12)
        XCTAssertEqual(rejected, 8)
    }

    private func checkSuite(images: URL, expected: URL, prefix: String, suite: String, expectedFailures: Int) throws {
        let expectations = try Self.expectations(expected)
        var matched = 0, rejected = 0
        for file in try Corpus.files(in: images, suffix: ".png") {
            let key = prefix + file.lastPathComponent
            guard let value = expectations[key] else {
                XCTFail("\(file.lastPathComponent) has no expectation")
                continue
            }
            if try check(file: file, expected: value) { matched += 1 } else { rejected += 1 }
        }
        Corpus.report(suite, ["matched CRC": matched, "rejected": rejected])
        XCTAssertEqual(rejected, expectedFailures)
        XCTAssertGreaterThan(matched, 150)
    }

    /// True when the file decoded to its CRC; false when it was (expected to be) rejected.
    private func check(file: URL, expected: UInt32?) throws -> Bool {
        let name = file.lastPathComponent
        do {
            let decoded = try PNGDecoder.decodeExpanded(.file(path: file.path))
            guard let expected else {
                XCTFail("\(name) should be rejected but decoded")
                return true
            }
            XCTAssertEqual(CRC32.checksum(decoded.pixels), expected, "\(name) pixel CRC")
            return true
        } catch let error as ImgCacheError {
            if case .corruptImage(format: .png, _) = error {} else { XCTFail("\(name): unexpected error \(error)") }
            XCTAssertNil(expected, "\(name) should decode but failed: \(error)")
            return false
        }
    }

    /// `path: crc` lines; "Expected failure" gives nil.
    static func expectations(_ file: URL) throws -> [String: UInt32?] {
        var result: [String: UInt32?] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            guard let colon = line.lastIndex(of: ":") else { continue }
            let path = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            result[path] = UInt32(value)
        }
        return result
    }
}

/// PngSuite through the RGBA path the pipeline uses: each Adam7 file equals its non-interlaced twin.
final class PNGAdam7ConformanceTests: XCTestCase {
    func testInterlacedFilesDecodeLikeTheirNonInterlacedTwins() throws {
        let folder = try Corpus.folder("pngsuite/images")
        let interlaced = try Corpus.files(in: folder, suffix: ".png").filter { $0.lastPathComponent.hasPrefix("basi") }
        for file in interlaced {
            let twin = folder.appendingPathComponent("basn" + file.lastPathComponent.dropFirst(4))
            let a = try ImageDecoder.decode(.file(path: file.path)).frames[0].bitmap
            let b = try ImageDecoder.decode(.file(path: twin.path)).frames[0].bitmap
            XCTAssertTrue(a == b, "\(file.lastPathComponent) differs from \(twin.lastPathComponent)")
        }
        Corpus.report("PngSuite Adam7 vs plain (RGBA)", ["identical": interlaced.count])
        XCTAssertEqual(interlaced.count, 15)
    }
}

/// libpng's own test files: fuzz crashers, bad palettes, its re-encoded PngSuite subset.
final class LibpngPNGConformanceTests: XCTestCase {
    /// Every crasher is refused with a typed error. libpng's pngtest loads badcrc.png and
    /// badadler.png only with --relaxed (CRC and Adler-32 checks off); ImgCache keeps libpng's
    /// default checks, so both are refused. empty_ancillary_chunks.png (a pngtest --xfail) has
    /// zero-length ancillary chunks before its image data, which ImgCache treats as errors, as
    /// libpng's strict reading and Pillow do.
    func testCrashersFailWithTypedErrors() throws {
        let folder = try Corpus.folder("libpng/testpngs/crashers")
        var refused = 0
        for file in try Corpus.files(in: folder, suffix: ".png") {
            let name = file.lastPathComponent
            for options in [DecodingOptions(), DecodingOptions(acceptsTruncatedData: true)] {
                switch CleanOutcome.decode(.file(path: file.path), options: options) {
                case .decoded:
                    XCTFail("\(name) decoded")
                case .refused(let error):
                    guard case .corruptImage(.png, _) = error else { return XCTFail("\(name): \(error)") }
                    if !options.acceptsTruncatedData { refused += 1 }
                case .untyped(let error):
                    XCTFail("\(name): \(error)")
                }
            }
        }
        Corpus.report("libpng crashers", ["refused": refused])
        XCTAssertEqual(refused, 23)
    }

    /// Palette indexes past the palette are a libpng warning (a benign error on read), so these
    /// decode; the missing entries come out opaque black (see Go's invalid-palette.png below).
    func testBadPaletteFilesDecodeOrFailCleanly() throws {
        let outcome = try CleanOutcome.check(folder: Corpus.folder("libpng/testpngs/badpal"), suffixes: [".png"])
        Corpus.report("libpng badpal", outcome.counts)
        XCTAssertEqual(outcome.decoded + outcome.refused, 9)
    }

    func testContribPngSuiteBasicFilesArePixelIdenticalToPngSuite() throws {
        let folder = try Corpus.folder("libpng/contrib-pngsuite")
        let pngsuite = try Corpus.folder("pngsuite/images")
        let files = try Corpus.files(in: folder, suffix: ".png").filter { $0.lastPathComponent.hasPrefix("basn") }
        for file in files {
            let ours = try PNGDecoder.decodeExpanded(.file(path: file.path))
            let theirs = try PNGDecoder.decodeExpanded(.file(path: pngsuite.appendingPathComponent(file.lastPathComponent).path))
            XCTAssertTrue(ours.size == theirs.size && ours.channels == theirs.channels && ours.pixels == theirs.pixels,
                          "\(file.lastPathComponent) differs from PngSuite's")
        }
        Corpus.report("libpng contrib-pngsuite basn", ["identical to PngSuite": files.count])
        XCTAssertEqual(files.count, 15)
    }

    func testEveryOtherFileDecodes() throws {
        let folder = try Corpus.folder("libpng")
        var decoded = 0
        for group in ["contrib-pngsuite", "contrib-pngsuite/interlaced", "testpngs", "testpngs/png-3", "."] {
            let outcome = try CleanOutcome.check(folder: folder.appendingPathComponent(group), suffixes: [".png"])
            XCTAssertEqual(outcome.refused, 0, group)
            decoded += outcome.decoded
        }
        Corpus.report("libpng other files", ["decoded": decoded])
    }
}

/// Go's png testdata: the invalid files its reader rejects, and the rest.
final class GoImagePNGConformanceTests: XCTestCase {
    func testInvalidFilesAreRejected() throws {
        let folder = try Corpus.folder("go-image/png-testdata")
        let names = ["invalid-crc32.png", "invalid-noend.png", "invalid-trunc.png", "invalid-zlib.png"]
        for name in names {
            XCTAssertThrowsError(try ImageDecoder.decode(.file(path: folder.appendingPathComponent(name).path))) { error in
                guard case ImgCacheError.corruptImage(.png, _) = error else { return XCTFail("\(name): \(error)") }
            }
        }
        Corpus.report("go-image invalid PNGs", ["rejected": names.count])
    }

    /// invalid-palette.png uses an index past its palette: Go decodes it as opaque black, and so
    /// does libpng (a warning on read).
    func testOutOfRangePaletteIndexDecodesAsOpaqueBlack() throws {
        let folder = try Corpus.folder("go-image/png-testdata")
        let decoded = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("invalid-palette.png").path))
        let pixels = decoded.frames[0].bitmap.pixels
        let blackPixels = stride(from: 0, to: pixels.count, by: 4).filter { pixels[$0..<$0 + 4] == [0, 0, 0, 255] }
        XCTAssertFalse(blackPixels.isEmpty)
    }

    func testOtherFilesDecode() throws {
        let folder = try Corpus.folder("go-image/png-testdata")
        var decoded = 0
        for group in [".", "pngsuite"] {
            let files = try Corpus.files(in: folder.appendingPathComponent(group), suffix: ".png")
                .filter { !$0.lastPathComponent.hasPrefix("invalid-") }
            for file in files {
                XCTAssertNoThrow(try ImageDecoder.decode(.file(path: file.path)), file.lastPathComponent)
                decoded += 1
            }
        }
        Corpus.report("go-image PNGs", ["decoded": decoded])
    }
}

/// image-rs reference renders (RGBA PNGs) of its PNG images: exact.
final class ImageRsPNGConformanceTests: XCTestCase {
    /// `X.png.png` renders X; an APNG has only `X.png.anim_NN.png` frame renders. libpng 1.6.39
    /// (no APNG patch) shows an APNG's default image, which is frame 1 when its fcTL comes before
    /// IDAT: then it is compared with anim_01. Where the default image is not a frame
    /// (fcTL-blend-source-transparent, fcTL-dispose-in-region-previous), and for every later frame,
    /// there is nothing libpng renders to compare.
    ///
    /// The renders are of the stored pixels, with no colour management: most of these PngSuite
    /// files carry gAMA 1.0, which imgcache applies by default (as Chrome and Firefox do), so the
    /// files are decoded with `.ignore` to compare the decoding itself.
    func testPNGsAndAPNGDefaultImagesMatchReferencesExactly() throws {
        let folder = try Corpus.folder("image-rs")
        let images = folder.appendingPathComponent("images/png")
        let files = (FileManager.default.enumerator(at: images, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "png" }
        var matched = 0, firstFrames = 0
        for file in files {
            let relative = String(file.path.dropFirst(images.path.count + 1))
            var reference = folder.appendingPathComponent("reference/png/\(relative).png")
            if !FileManager.default.fileExists(atPath: reference.path) {
                reference = folder.appendingPathComponent("reference/png/\(relative).anim_01.png")
                guard try PNGChunks.defaultImageIsFirstFrame(file), FileManager.default.fileExists(atPath: reference.path) else { continue }
                firstFrames += 1
            }
            let decoded = try ImageDecoder.decode(.file(path: file.path), options: DecodingOptions(colorPolicy: .ignore)).frames[0].bitmap
            XCTAssertEqual(try PixelDifference(decoded, ReferenceImage.png(reference)).maximum, 0, relative)
            matched += 1
        }
        Corpus.report("image-rs PNG references", ["exact": matched, "of which APNG frame 1": firstFrames])
        XCTAssertEqual(matched, 22)
    }

    func testRegressionFilesDecodeOrFailCleanly() throws {
        let outcome = try CleanOutcome.check(folder: Corpus.folder("image-rs/regression/image"), suffixes: [".png"])
        Corpus.report("image-rs PNG regressions", outcome.counts)
    }
}

/// Pillow's PNG files: broken and truncated ones, decompression bombs, APNG edge cases.
final class PillowPNGConformanceTests: XCTestCase {
    func testBrokenAndTruncatedFilesAreRejected() throws {
        let folder = try Corpus.folder("pillow/png")
        let names = ["broken.png", "broken_data_stream.png", "truncated_image.png", "truncated_end_chunk.png"]
        for name in names {
            XCTAssertThrowsError(try ImageDecoder.decode(.file(path: folder.appendingPathComponent(name).path)), name) { error in
                guard case ImgCacheError.corruptImage(.png, _) = error else { return XCTFail("\(name): \(error)") }
            }
        }
        let outcome = try CleanOutcome.check(folder: folder, suffixes: [".png"])
        Corpus.report("pillow PNG", ["broken rejected": names.count, "decoded": outcome.decoded, "refused": outcome.refused])
    }

    /// png_decompression_dos.png: a 1x1 image behind huge compressed text chunks, which are skipped
    /// unread (PNGLimitsTests checks the same on a file made in the test).
    func testDecompressionBombDecodesQuickly() throws {
        let file = try Corpus.folder("pillow/bombs").appendingPathComponent("png_decompression_dos.png")
        let started = Date()
        let outcome = CleanOutcome.decode(.file(path: file.path))
        XCTAssertTrue(outcome.isClean)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.0)
    }

    /// libpng without the APNG patch reads each file's default image; every file decodes or is refused cleanly.
    func testAPNGFilesShowTheirDefaultImage() throws {
        let outcome = try CleanOutcome.check(folder: Corpus.folder("pillow/apng"), suffixes: [".png"])
        Corpus.report("pillow APNG", outcome.counts)
        XCTAssertGreaterThanOrEqual(outcome.decoded, 50)
    }
}

/// Reads the chunk types of a PNG file.
enum PNGChunks {
    /// True when an fcTL chunk comes before the first IDAT (the APNG default image is frame 1).
    static func defaultImageIsFirstFrame(_ url: URL) throws -> Bool {
        let bytes = [UInt8](try Data(contentsOf: url))
        var position = 8
        while position + 8 <= bytes.count {
            let length = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            switch String(decoding: bytes[position + 4..<position + 8], as: UTF8.self) {
            case "fcTL": return true
            case "IDAT": return false
            default: position += 12 + length
            }
        }
        return false
    }
}
