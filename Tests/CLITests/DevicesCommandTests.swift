import Foundation
import XCTest

final class DevicesCommandTests: XCTestCase {
    func testDevicesListsEveryScreenClassWithWidgetPixels() throws {
        let result = try CLIRunner.run(["devices"])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("iPhone 16 Pro / 17 / 17 Pro  (402x874 pt @3x)"), result.output)
        XCTAssertTrue(result.output.contains("medium 344x162 pt = 1032x486 px"), result.output)
        XCTAssertTrue(result.output.contains("iPhone Air  (420x912 pt @3x)"), result.output)
        XCTAssertTrue(result.output.contains("small -"), result.output)
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
    }
}
