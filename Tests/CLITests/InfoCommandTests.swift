import Foundation
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
}
