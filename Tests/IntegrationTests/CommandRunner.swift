import Foundation
import TestSupport
import XCTest

/// Runs a built executable of the package (`imgcache`, `feed-widget`); a run that passes its
/// time-out or crashes fails the test.
enum CommandRunner {
    static func run(
        _ executable: String, _ arguments: [String], timeout: TimeInterval = 120,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ProductRunner.Result {
        let result = try ProductRunner.run(executable, arguments, timeout: timeout)
        XCTAssertFalse(result.killedBySignal, "\(executable) \(arguments) was killed or timed out", file: file, line: line)
        return result
    }

    /// Parses `text` as one JSON object.
    static func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }
}
