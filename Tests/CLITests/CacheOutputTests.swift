import Foundation
import XCTest
@testable import ImgCacheCommandLine

/// `imgcache cache --json` output: a value JSON cannot hold is an error with a message, not a crash.
final class CacheOutputTests: XCTestCase {
    func testAValueJSONCannotHoldThrowsAndNamesIt() throws {
        let output = CacheOutput(json: true)
        XCTAssertThrowsError(try output.emit(["share": Double.nan], what: "the cache's figures")) { error in
            XCTAssertEqual(
                "\(error)", "cannot write the cache's figures as JSON: Invalid number value (nan) in JSON write")
        }
        XCTAssertNoThrow(try output.emit(["share": 0.5], what: "the cache's figures"))
    }
}
