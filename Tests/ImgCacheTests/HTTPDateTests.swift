import Foundation
import TestSupport
import XCTest
@testable import ImgCache

final class HTTPDateTests: XCTestCase {
    /// Sun, 06 Nov 1994 08:49:37 GMT, the example of RFC 9110.
    let example = Date(timeIntervalSince1970: 784_111_777)
    /// 2026-06-01, for the two-digit years of RFC 850.
    let now = Date(timeIntervalSince1970: 1_780_272_000)

    func testAllThreeFormatsOfTheRFCExampleReadTheSameMoment() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now), example)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now), example)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994", now: now), example)
        XCTAssertEqual(HTTPDate.parse("Sun Nov 06 08:49:37 1994", now: now), example)
    }

    func testNamesAndZoneAreReadWithoutRegardToCaseAndUTCIsGMT() {
        XCTAssertEqual(HTTPDate.parse("sun, 06 NOV 1994 08:49:37 gmt"), example)
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 UTC"), example)
        XCTAssertEqual(HTTPDate.parse("  Sun,  06 Nov 1994 08:49:37 GMT "), example)
    }

    func testTwoDigitYearsMoreThanFiftyYearsAheadAreInThePastCentury() {
        // From mid-2026, 2076 is the last year not more than fifty years ahead.
        XCTAssertEqual(HTTPDate.parse("Friday, 01-Jan-76 00:00:00 GMT", now: now), date(2076, 1, 1))
        XCTAssertEqual(HTTPDate.parse("Monday, 01-Jan-77 00:00:00 GMT", now: now), date(1977, 1, 1))
        XCTAssertEqual(HTTPDate.parse("Thursday, 01-Jan-26 00:00:00 GMT", now: now), date(2026, 1, 1))
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: date(2060, 1, 1)), date(2094, 11, 6, 8, 49, 37))
    }

    func testLeapDaysAndLeapSeconds() {
        XCTAssertEqual(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT"), date(2024, 2, 29, 12))
        XCTAssertEqual(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT"), date(2000, 2, 29))
        XCTAssertNil(HTTPDate.parse("Wed, 29 Feb 2023 00:00:00 GMT"))
        XCTAssertNil(HTTPDate.parse("Thu, 29 Feb 1900 00:00:00 GMT"))
        XCTAssertEqual(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT"), date(2016, 12, 31, 23, 59, 59))
    }

    func testDatesBefore1970() {
        XCTAssertEqual(HTTPDate.parse("Fri, 01 Jan 1960 00:00:00 GMT")?.timeIntervalSince1970, -315_619_200)
        XCTAssertEqual(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT")?.timeIntervalSince1970, 0)
    }

    func testMalformedDatesAreRejected() {
        for text in [
            "", "0", "-1", "now", "1994-11-06T08:49:37Z",
            "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 1994 08:49:37 +0000", "Sun, 06 Nov 1994 08:49:37",
            "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 6 Nov 19945 08:49:37 GMT", "Sun, 006 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Non 1994 08:49:37 GMT", "Abc, 06 Nov 1994 08:49:37 GMT",
            "Sun 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sunday, 06 Nov 94 08:49:37 GMT",
            "Sun, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 94", "Sun Nov  6 08:49:37 1994 GMT",
            "Sun, 06 Nov 1994 08:4x:37 GMT", "Sun, 06 Nov 0000 08:49:37 GMT",
        ] {
            XCTAssertNil(HTTPDate.parse(text), text)
        }
    }

    func testAgreesWithDateFormatterOverTwoCenturies() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var random = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            // 1901 to 2099.
            let seconds = -2_177_452_800 + Int(random.next() % 6_279_206_400)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = formatter.string(from: date)
            XCTAssertEqual(HTTPDate.parse(text), date, text)
        }
    }

    private func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }
}
