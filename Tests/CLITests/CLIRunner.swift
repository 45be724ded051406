import Foundation
import ImgCache
import TestSupport
import XCTest

/// Runs the built `imgcache` binary; a run that passes its time-out or crashes fails the test.
enum CLIRunner {
    static func run(
        _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 120,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ProductRunner.Result {
        let result = try ProductRunner.run("imgcache", arguments, in: directory, timeout: timeout)
        XCTAssertFalse(result.killedBySignal, "imgcache \(arguments.joined(separator: " ")) was killed or timed out",
                       file: file, line: line)
        return result
    }

    /// Runs each command line (after `verb`) in `directory` and checks its exit status, and that
    /// standard error is one line holding its message.
    static func assertFailures(
        _ verb: String, _ cases: [(arguments: [String], status: Int32, message: String)], in directory: URL,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for testCase in cases {
            let result = try run([verb] + testCase.arguments, in: directory, file: file, line: line)
            XCTAssertEqual(result.status, testCase.status, "\(testCase.arguments): \(result.errors)", file: file, line: line)
            XCTAssertTrue(result.errors.contains(testCase.message), "\(testCase.arguments): \(result.errors)", file: file, line: line)
            XCTAssertEqual(result.errors.split(separator: "\n").count, 1, result.errors, file: file, line: line)
        }
    }

    /// A 750x1334 screenshot (se.png) and the first half of its file (cut.png) in `folder`.
    static func seScreenshots(in folder: URL) throws -> (screenshot: String, truncated: String) {
        let screenshot = try HomeScreenshot.write(size: PixelSize(width: 750, height: 1334), to: folder.appendingPathComponent("se.png"))
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        let truncated = folder.appendingPathComponent("cut.png")
        try png.prefix(png.count / 2).write(to: truncated)
        return (screenshot, truncated.path)
    }

    /// Screenshots no layout takes, written to `folder`, each with `options` after it and the exit
    /// status and message `layout`, `slice` and `overlay` give: landscape, 1125x2436 without
    /// --device, and a size no iPhone makes with --strict.
    static func screenshotFailures(in folder: URL, options: [String]) throws -> [(arguments: [String], status: Int32, message: String)] {
        func screenshot(_ name: String, _ width: Int, _ height: Int) throws -> String {
            try HomeScreenshot.write(size: PixelSize(width: width, height: height), to: folder.appendingPathComponent(name))
        }
        return [
            ([try screenshot("landscape.png", 1334, 750)] + options, 2, "landscape"),
            ([try screenshot("x.png", 1125, 2436)] + options, 2, "give --device (iPhone X / XS / 11 Pro or iPhone 12 mini / 13 mini)"),
            ([try screenshot("odd.png", 1000, 2000), "--strict"] + options, 2, "1000x2000 is no iPhone's screenshot size"),
        ]
    }

    /// A fresh empty folder under the temporary directory.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The repository's Samples/media folder.
    static let media = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/media")
}
