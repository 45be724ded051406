import Foundation
import TestSupport
import XCTest

/// Runs the built `imgcache` binary; a run that passes its time-out or crashes fails the test.
enum CLIRunner {
    static func run(
        _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 60,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ProductRunner.Result {
        let result = try ProductRunner.run("imgcache", arguments, in: directory, timeout: timeout)
        XCTAssertFalse(result.killedBySignal, "imgcache \(arguments.joined(separator: " ")) was killed or timed out",
                       file: file, line: line)
        return result
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
