import Foundation
import ImgCache
import TestSupport
import XCTest

final class InfoCommandTests: XCTestCase {
    func testInfoPrintsFormatSizeAndFramesFromTheHeaders() throws {
        let path = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        let result = try CLIRunner.run(["info", path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("format:      JPEG"), result.output)
        XCTAssertTrue(result.output.contains("size:        3000x2000 pixels"), result.output)
        XCTAssertTrue(result.output.contains("frames:      1"), result.output)
    }

    func testInfoJSONIsOneObjectWithTheFields() throws {
        let path = CLIRunner.media.appendingPathComponent("badge.png").path
        let result = try CLIRunner.run(["info", "--json", path])
        XCTAssertEqual(result.status, 0, result.errors)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        XCTAssertEqual(object["format"] as? String, "png")
        XCTAssertEqual(object["width"] as? Int, 640)
        XCTAssertEqual(object["height"] as? Int, 640)
        XCTAssertEqual(object["frames"] as? Int, 1)
        XCTAssertTrue(object["loopCount"] is NSNull)
        XCTAssertEqual(object["bytes"] as? Int, try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    func testInfoOnANonImageFailsWithExitCode3() throws {
        let folder = try CLIRunner.temporaryFolder()
        let file = folder.appendingPathComponent("page.png")
        try Data("<html></html>".utf8).write(to: file)
        let result = try CLIRunner.run(["info", file.path])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.errors.hasPrefix("imgcache info: unsupported format"), result.errors)
    }

    func testFactsAreThoseOfTheImageAsTheOptionsPrepareIt() throws {
        let path = CLIRunner.media.appendingPathComponent("harbour.jpg").path
        let result = try CLIRunner.run(["info", "--json", path, "--size", "300x200", "--blurhash", "5x4"])
        XCTAssertEqual(result.status, 0, result.errors)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        // The header facts are the file's; the pixel facts the 300x200 image decode makes.
        XCTAssertEqual(object["width"] as? Int, 3000)
        XCTAssertEqual(object["prepared"] as? [String: Int], ["width": 300, "height": 200])
        let bitmap = try ImageDecoder.decode(.file(path: path), options: DecodingOptions(targetSize: PixelSize(width: 300, height: 200)))
            .frames[0].bitmap
        let facts = try ImageFacts(of: bitmap, blurHashComponents: (5, 4))
        XCTAssertEqual(object["blurhash"] as? String, facts.blurHash)
        XCTAssertEqual(object["thumbhash"] as? String, Data(facts.thumbHash).base64EncodedString())
        let average = try XCTUnwrap(object["average"] as? [String: Int])
        XCTAssertEqual(average, ["R": Int(facts.average.red), "G": Int(facts.average.green), "B": Int(facts.average.blue), "A": 255])
        XCTAssertEqual((object["dominant_colors"] as? [Any])?.count, facts.dominantColors.count)
        let legibility = try XCTUnwrap(object["legibility"] as? [String: [String: Any]])
        XCTAssertEqual(legibility["bottom"]?["text"] as? String, facts.legibility.bottom.text.rawValue)

        let text = try CLIRunner.run(["info", "--facts", path, "--size", "300x200", "--blur", "4", "--tint", "dark"])
        XCTAssertEqual(text.status, 0, text.errors)
        XCTAssertTrue(text.output.contains("prepared:    300x200 pixels"), text.output)
        XCTAssertTrue(text.output.contains("text top:    white (white "), text.output)
        XCTAssertFalse(text.output.contains(facts.blurHash), "the blur and the tint change the placeholder")
    }

    func testWithoutFactsNothingIsDecodedAndBadFactOptionsAreUsageErrors() throws {
        let path = CLIRunner.media.appendingPathComponent("badge.png").path
        let plain = try CLIRunner.run(["info", "--json", path])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plain.output.utf8)) as? [String: Any])
        XCTAssertNil(object["blurhash"])
        for bad in ["0x3", "10x1", "4", "4x3x2", "axb"] {
            let result = try CLIRunner.run(["info", path, "--blurhash", bad])
            XCTAssertEqual(result.status, 2, bad)
            XCTAssertTrue(result.errors.contains("--blurhash expects XxY components from 1 to 9 each"), result.errors)
        }
    }

    /// The placeholders `info --facts` prints for small files (no shrinking) are those the
    /// reference packages give for the pixels Pillow decodes from the same files.
    func testPlaceholdersOfSmallFilesAreTheReferencesOfTheSameFiles() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/placeholder_reference.py")
        let folder = try CLIRunner.temporaryFolder()
        let photo = try ImageDecoder.decode(
            .file(path: CLIRunner.media.appendingPathComponent("harbour.jpg").path),
            options: DecodingOptions(targetSize: PixelSize(width: 96, height: 96))).frames[0].bitmap
        let jpeg = folder.appendingPathComponent("small.jpg"), png = folder.appendingPathComponent("small.png")
        try JPEGEncoder.encode(photo, quality: 90).write(to: jpeg)
        try PNGEncoder.encode(photo).write(to: png)
        for file in [jpeg, png] {
            let reference = try ProductRunner.runTool("python3", [script.path, "encode", file.path])
            if reference.errors.contains("No module named") { throw XCTSkip("blurhash, thumbhash or Pillow is missing (make setup)") }
            XCTAssertEqual(reference.status, 0, reference.errors)
            let expected = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(reference.output.utf8)) as? [String: String])
            let result = try CLIRunner.run(["info", "--facts", "--json", file.path])
            XCTAssertEqual(result.status, 0, result.errors)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            XCTAssertEqual(object["blurhash"] as? String, expected["blurhash"], file.lastPathComponent)
            XCTAssertEqual(object["thumbhash"] as? String, expected["thumbhash"], file.lastPathComponent)
        }
    }
}
