import Foundation
import ImgCache
import TestSupport
import XCTest

/// Someone's folder given as `--cache-dir` to every verb: those that open the cache refuse it
/// (exit 6), the others do not take the option (exit 2), an empty `--cache-dir` is a usage error
/// (exit 2), and the folder comes out byte for byte as it went in.
final class CacheFolderCommandTests: XCTestCase {
    private static let photo = CLIRunner.media.appendingPathComponent("harbour.jpg").path

    func testEveryVerbLeavesAFolderThatIsNoCacheByteForByteAsItWasWithItsExitCode() throws {
        let user = try CLIRunner.temporaryFolder()
        try UserFolder.populate(user)
        let before = try UserFolder.snapshot(user)
        let inputs = try CLIRunner.temporaryFolder()
        let list = inputs.appendingPathComponent("urls.txt")
        try (Self.photo + "\n").write(to: list, atomically: true, encoding: .utf8)
        let screenshot = URL(fileURLWithPath: try CLIRunner.seScreenshots(in: inputs).screenshot).absoluteString
        let refused = "\(user.path): not an imgcache cache, and not empty: nothing in it was changed"
        let notTaken = "unknown option --cache-dir"
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["fetch", Self.photo, "--size", "100x100"], 6, refused),
            (["prefetch", list.path, "--size", "100x100"], 6, refused),
            (["slice", screenshot, "--all"], 6, refused),
            (["serve", "--listen", "127.0.0.1:0", "--allow-unsigned"], 6, refused),
            (["cache", "stats"], 6, refused),
            (["cache", "ls"], 6, refused),
            (["cache", "path", "https://example.com/report.csv"], 6, refused),
            (["cache", "prune"], 6, refused),
            (["cache", "verify", "--repair"], 6, refused),
            (["cache", "clear"], 6, refused),
            (["decode", Self.photo, "--size", "100x100", "-o", inputs.appendingPathComponent("out.png").path], 2, notTaken),
            (["info", Self.photo], 2, notTaken),
        ]
        for testCase in cases {
            for form in [["--cache-dir", user.path], ["--cache-dir=" + user.path]] {
                let result = try CLIRunner.run(testCase.arguments + form, in: user)
                XCTAssertEqual(result.status, testCase.status, "\(testCase.arguments): \(result.errors)")
                XCTAssertTrue(result.errors.contains(testCase.message), "\(testCase.arguments): \(result.errors)")
                XCTAssertEqual(result.errors.split(separator: "\n").count, 1, result.errors)
                XCTAssertEqual(try UserFolder.snapshot(user), before, "\(testCase.arguments) changed the folder")
            }
        }
    }

    func testAnEmptyCacheDirIsAUsageErrorThatLeavesTheCurrentFolderAlone() throws {
        let user = try CLIRunner.temporaryFolder()
        try UserFolder.populate(user)
        let before = try UserFolder.snapshot(user)
        let message = "--cache-dir is empty (an unset variable?)"
        for arguments in [
            ["fetch", Self.photo, "--size", "100x100"], ["prefetch", "urls.txt"], ["slice", "https://example.com/home.png", "--all"],
            ["serve", "--allow-unsigned"], ["cache", "clear"], ["cache", "verify", "--repair"], ["cache", "prune"],
        ] {
            for form in [["--cache-dir", ""], ["--cache-dir="]] {
                let result = try CLIRunner.run(arguments + form, in: user)
                XCTAssertEqual(result.status, 2, "\(arguments): \(result.errors)")
                XCTAssertTrue(result.errors.contains(message), "\(arguments): \(result.errors)")
            }
        }
        XCTAssertEqual(try UserFolder.snapshot(user), before)
    }

    func testANewFolderBecomesACacheAndAnEarlierVersionsCacheKeepsWorking() throws {
        let folder = try CLIRunner.temporaryFolder().appendingPathComponent("cache")
        let fetched = try CLIRunner.run(["fetch", Self.photo, "--size", "100x100", "--cache-dir", folder.path])
        XCTAssertEqual(fetched.status, 0, fetched.errors)
        let tag = folder.appendingPathComponent("CACHEDIR.TAG")
        XCTAssertTrue(try String(contentsOf: tag, encoding: .utf8).hasPrefix("Signature: 8a477f597d28d172789f06886806bc55\n"))

        // As an earlier version left it: no tag, no application id in the index.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        sqlite.arguments = ["-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA application_id = 0')",
                            folder.appendingPathComponent("index.sqlite").path]
        try sqlite.run()
        sqlite.waitUntilExit()
        XCTAssertEqual(sqlite.terminationStatus, 0)
        try FileManager.default.removeItem(at: tag)

        let listed = try CLIRunner.run(["cache", "ls", "--json", "--cache-dir", folder.path])
        XCTAssertEqual(listed.status, 0, listed.errors)
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.count, 2, "the original and its variant")
        let again = try CLIRunner.run(["fetch", Self.photo, "--size", "100x100", "--json", "--cache-dir", folder.path])
        XCTAssertEqual(again.status, 0, again.errors)
        XCTAssertTrue(again.output.contains("\"cache\":\"disk\""), again.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tag.path))
    }
}
