import Foundation
import XCTest

public struct ConditionNotMet: Error, CustomStringConvertible {
    public let description: String
}

/// Returns once `condition` holds, checking it every 10 ms. The bound (default 60 s) is no part of
/// what a test proves: it only ends a test whose condition never comes (a broken build) with a
/// failure rather than a hang, so it is far beyond what a loaded machine takes.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(60), file: StaticString = #filePath, line: UInt = #line,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            XCTFail("timed out waiting until \(what)", file: file, line: line)
            throw ConditionNotMet(description: "timed out waiting until \(what)")
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
