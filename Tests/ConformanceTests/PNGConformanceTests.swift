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
