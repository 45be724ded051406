import Foundation
import XCTest

final class DevicesCommandTests: XCTestCase {
    func testDevicesListsEveryScreenClassWithWidgetPixels() throws {
        let result = try CLIRunner.run(["devices"])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("iPhone 16 Pro / 17 / 17 Pro  (402x874 pt @3x)"), result.output)
        XCTAssertTrue(result.output.contains("medium 344x162 pt = 1032x486 px"), result.output)
        XCTAssertTrue(result.output.contains("iPhone Air  (420x912 pt @3x)"), result.output)
        XCTAssertTrue(result.output.contains("small 169x169 pt = 507x507 px (estimated, expected error up to 24 px)"), result.output)
        XCTAssertTrue(result.output.contains("small -"), result.output) // iPad Pro M4: no size and no estimate
        XCTAssertTrue(result.output.contains(
            "today: compact l 359x110 pt = 718x220 px (xs-xxxl: 95, 100, 105, 110, 120, 135, 140 pt high); "
                + "expanded today-view 359x616 pt = 718x1232 px, notification-center 359x528 pt = 718x1056 px"), result.output)
        XCTAssertTrue(result.output.contains("landscape notification-center 398x264 pt = 1194x792 px (estimated)"), result.output)
    }

    func testDevicesJSONHasEveryDeviceAndPixelSizes() throws {
        let result = try CLIRunner.run(["devices", "--json"])
        XCTAssertEqual(result.status, 0, result.errors)
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(devices.count, 24)
        let pad = try XCTUnwrap(devices.first { ($0["models"] as? [String])?.contains("iPad Air 2") == true })
        let widgets = try XCTUnwrap(pad["widgets"] as? [String: [String: Any]])
        XCTAssertEqual(widgets["extra-large"]?["pixels"] as? [String: Int], ["width": 1080, "height": 520])
        XCTAssertNotNil(pad["widgetCanvas"])
        XCTAssertNil(pad["today"])
        let air = try XCTUnwrap(devices.first { $0["name"] as? String == "iPhone Air" })
        let airSmall = try XCTUnwrap((air["widgets"] as? [String: [String: Any]])?["small"])
        XCTAssertEqual(airSmall["estimated"] as? Bool, true)
        XCTAssertEqual(airSmall["expected_error_px"] as? Int, 24)
        XCTAssertEqual(air["safeArea"] as? [String: Double], ["top": 68, "bottom": 34])
    }

    /// Every Today size against its source's numbers, in points and pixels, with its sources.
    func testDevicesJSONListsTheTodaySizesWithTheirSources() throws {
        let result = try CLIRunner.run(["devices", "--json"])
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        func today(_ model: String) throws -> [[String: Any]] {
            let device = try XCTUnwrap(devices.first { ($0["models"] as? [String])?.contains(model) == true })
            return try XCTUnwrap(device["today"] as? [[String: Any]])
        }
        let eight = try today("iPhone 8")
        let compact = eight.filter { $0["mode"] as? String == "today-compact" }
        XCTAssertEqual(compact.map { $0["text_size"] as? String }, ["xs", "s", "m", "l", "xl", "xxl", "xxxl"])
        XCTAssertEqual(compact.map { $0["height"] as? Double }, [95, 100, 105, 110, 120, 135, 140])
        XCTAssertEqual(compact.map { $0["width"] as? Double }, Array(repeating: 359, count: 7))
        XCTAssertEqual(compact[3]["pixels"] as? [String: Int], ["width": 718, "height": 220])
        XCTAssertTrue((compact[3]["sources"] as? [String: String])?["height"]?.contains("PSPDFKit") == true)
        XCTAssertEqual((compact[1]["sources"] as? [String: String])?["height"], "imgcache product requirements (no public source)")
        let expanded = eight.filter { $0["mode"] as? String == "today-expanded" }
        XCTAssertEqual(expanded.map { $0["entry"] as? String }, ["today-view", "notification-center"])
        XCTAssertEqual(expanded.map { $0["height"] as? Double }, [616, 528])
        XCTAssertEqual(expanded.map { $0["estimated"] as? Bool }, [false, false])
        let se = try today("iPhone SE (1st generation)").filter { $0["mode"] as? String == "today-expanded" }
        XCTAssertEqual(se.map { [$0["width"] as? Double, $0["height"] as? Double] }, [[304, 528]])
        let plus = try today("iPhone 8 Plus").filter { $0["mode"] as? String == "today-expanded" }
        XCTAssertEqual(plus.map { $0["height"] as? Double }, [352, 264])
        XCTAssertEqual(plus.map { $0["landscape"] as? Bool }, [true, true])
        XCTAssertEqual(plus.map { $0["estimated"] as? Bool }, [true, true], "no source gives the landscape width")
        XCTAssertEqual(plus.first?["pixels"] as? [String: Int], ["width": 1194, "height": 1056])
        XCTAssertEqual(try today("iPhone 16").filter { $0["mode"] as? String == "today-expanded" }.count, 0)
    }
}
