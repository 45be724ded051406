import Foundation
import ImgCacheServerURLs
import TestSupport
import XCTest

/// The signing examples of docs/serving.md give the signature the server checks.
final class ServingPageSigningTests: XCTestCase {
    private static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/serving.md")
    private let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    private let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"

    /// The code block that follows `marker` in docs/serving.md.
    private func block(after marker: String, language: String) throws -> String {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: marker), "docs/serving.md has no '\(marker)'")
        let open = try XCTUnwrap(text.range(of: "```\(language)\n", range: start.upperBound..<text.endIndex))
        let close = try XCTUnwrap(text.range(of: "```\n", range: open.upperBound..<text.endIndex))
        return String(text[open.upperBound..<close.lowerBound])
    }

    private func expected(_ path: String) throws -> String {
        let bytes = { (hex: String) in stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
        } }
        return try URLSigningKey(key: bytes(key), salt: bytes(salt)).signature(forPath: path)
    }

    func testTheShellExampleSignsAsTheServerChecks() throws {
        let script = try block(after: "In a shell:", language: "sh").replacingOccurrences(of: "curl ", with: "echo ")
        let result = try ProductRunner.runTool("env", ["IMGCACHE_KEY=\(key)", "IMGCACHE_SALT=\(salt)", "bash", "-c", script])
        XCTAssertEqual(result.status, 0, result.errors)
        let path = "/rs:fill:510:510/plain/https://images.example.com/a.jpg"
        XCTAssertEqual(result.output, "-o a.jpg http://127.0.0.1:8080/\(try expected(path))\(path)\n")
    }

    func testThePythonExampleSignsAsTheServerChecks() throws {
        let script = try block(after: "In Python (or with the", language: "python") + "print(url.decode())\n"
        let result = try ProductRunner.runTool("env", ["IMGCACHE_KEY=\(key)", "IMGCACHE_SALT=\(salt)", "python3", "-c", script])
        XCTAssertEqual(result.status, 0, result.errors)
        let path = "/rs:fill:510:510/plain/https://images.example.com/a.jpg"
        XCTAssertEqual(result.output, "http://127.0.0.1:8080/\(try expected(path))\(path)\n")
    }
}
