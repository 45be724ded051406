import Foundation
import ImgCache
import ImgCacheServerURLs
import XCTest

/// `po:1` (the CLI's `--poster`) and `te:ENTRIES[:EXTENSION[:FIT]]` (`--timeline-entries`,
/// `--extension`, `--fit-budget`): parsed into the request; bad values are 400s naming the option.
final class ServePosterTimelineTests: XCTestCase {
    func testPosterAndTimelineReachTheRequest() throws {
        XCTAssertTrue(try ServeParsing.request(["po:1"]).picksPoster)
        XCTAssertFalse(try ServeParsing.request(["poster:1", "po:0"]).picksPoster)
        XCTAssertFalse(try ServeParsing.request(["w:100"]).picksPoster)
        XCTAssertNil(try ServeParsing.request(["w:100"]).timeline)
        XCTAssertEqual(try ServeParsing.request(["te:8"]).timeline, TimelineBudget(memory: .widgetKit, entries: 8))
        XCTAssertEqual(try ServeParsing.request(["timeline_entries:4:today:1"]).timeline, TimelineBudget(memory: .today, entries: 4, fitsImage: true))
        XCTAssertEqual(try ServeParsing.request(["te:2::t"]).timeline, TimelineBudget(memory: .widgetKit, entries: 2, fitsImage: true))
    }

    func testBadValuesAreRefusedNamingTheOption() {
        let cases: [(String, String)] = [
            ("po:2", "po"), ("te:0", "te"), ("te:1001", "te"), ("te:8:watch", "te"), ("te:8:today:maybe", "te"), ("te:1:today:1:2", "te"),
        ]
        for (option, name) in cases {
            let error = ServeParsing.error(options: [option])
            guard case .invalidOption(let named, _)? = error else { return XCTFail("\(option): \(String(describing: error))") }
            XCTAssertEqual(named, name, option)
            XCTAssertEqual(error?.httpStatus, 400, option)
        }
    }
}
