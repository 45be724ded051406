import Foundation
import XCTest
@testable import ImgCache

/// Origins decide where credentials go: scheme, host and port, with the default ports equal to none.
final class HTTPOriginTests: XCTestCase {
    private func origin(_ url: String) -> HTTPOrigin { HTTPOrigin(URL(string: url)!) }

    func testDefaultPortsEqualAnAbsentPortAndCaseIsIgnored() {
        XCTAssertEqual(origin("http://a.test/x"), origin("http://a.test:80/y"))
        XCTAssertEqual(origin("https://a.test/x"), origin("https://A.TEST:443/y?q"))
        XCTAssertEqual(origin("HTTPS://a.test./x"), origin("https://a.test/x"))
    }

    func testAnotherSchemeHostOrPortIsAnotherOrigin() {
        let first = origin("http://a.test/x")
        for other in ["https://a.test/x", "http://b.test/x", "http://a.test:8080/x", "http://a.test:443/x", "http://sub.a.test/x"] {
            XCTAssertNotEqual(first, origin(other), other)
        }
        XCTAssertNotEqual(origin("https://a.test/"), origin("https://a.test:80/"))
    }
}
