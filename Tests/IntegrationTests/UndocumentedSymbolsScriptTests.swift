import Foundation
import TestSupport
import XCTest

/// `make docs`'s check that every public symbol has a doc comment (Tools/undocumented-symbols.swift,
/// run with `swift`), on symbol graphs written here in swift-symbolgraph-extract's format.
final class UndocumentedSymbolsScriptTests: XCTestCase {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/undocumented-symbols.swift")

    private var folder: URL!

    override func setUpWithError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // As the script sees it from inside (its working folder), symlinks resolved.
        self.folder = folder.resolvingSymlinksInPath()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A symbol as swift-symbolgraph-extract writes it (lines count from 0), with the fields the
    /// script reads.
    private func symbol(_ path: [String], kind: String, documented: Bool, file: String?, line: Int = 0) -> [String: Any] {
        var symbol: [String: Any] = [
            "kind": ["identifier": "swift.\(kind)", "displayName": kind == "init" ? "Initializer" : "Instance Property"],
            "identifier": ["precise": "s:8ImgCache\(path.joined())", "interfaceLanguage": "swift"],
            "pathComponents": path, "names": ["title": path.last ?? ""], "accessLevel": "public",
        ]
        if documented { symbol["docComment"] = ["lines": [["text": "Documented."]]] }
        if let file { symbol["location"] = ["uri": URL(fileURLWithPath: file).absoluteString, "position": ["line": line, "character": 4]] }
        return symbol
    }

    private func check(_ symbols: [[String: Any]]) throws -> ProductRunner.Result {
        let graph: [String: Any] = ["metadata": [:], "module": ["name": "ImgCache"], "symbols": symbols, "relationships": []]
        let file = folder.appendingPathComponent("ImgCache.symbols.json")
        try JSONSerialization.data(withJSONObject: graph).write(to: file)
        return try ProductRunner.runTool("swift", [Self.script.path, file.path], in: folder)
    }

    func testEachUndocumentedSymbolIsNamedWithItsFileAndLineAndTheCheckFails() throws {
        let result = try check([
            symbol(["Bitmap", "width"], kind: "property", documented: true, file: folder.path + "/Sources/Bitmap.swift", line: 2),
            symbol(["PixelSize", "height"], kind: "property", documented: false, file: folder.path + "/Sources/PixelSize.swift", line: 4),
            symbol(["Bitmap", "init(size:)"], kind: "init", documented: false, file: "/elsewhere/Bitmap.swift", line: 9),
            // Synthesised by the compiler (Hashable's hashValue): no place to write a comment.
            symbol(["CropGravity", "hashValue"], kind: "property", documented: false, file: nil),
        ])
        XCTAssertEqual(result.status, 1, result.errors)
        XCTAssertEqual(result.output, """
            /elsewhere/Bitmap.swift:10: Bitmap.init(size:) (initializer) has no doc comment
            Sources/PixelSize.swift:5: PixelSize.height (instance property) has no doc comment

            """)
        XCTAssertEqual(result.errors, "undocumented-symbols: 2 of 4 symbols have no doc comment\n")
    }

    func testAGraphWhoseSymbolsAreAllDocumentedPasses() throws {
        let result = try check([
            symbol(["Bitmap", "width"], kind: "property", documented: true, file: folder.path + "/Sources/Bitmap.swift"),
            symbol(["CropGravity", "hashValue"], kind: "property", documented: false, file: nil),
        ])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.output, "undocumented-symbols: all 2 symbols are documented\n")
    }

    func testAFileThatIsNoSymbolGraphIsAUsageError() throws {
        let file = folder.appendingPathComponent("broken.json")
        try Data("{\"symbols\": [".utf8).write(to: file)
        let result = try ProductRunner.runTool("swift", [Self.script.path, file.path], in: folder)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.errors.hasPrefix("undocumented-symbols: cannot read \(file.path)"), result.errors)
    }
}
