import Foundation
import XCTest
import ImgCache

final class SafeAreaConformanceTests: XCTestCase {
    /// Cross-checks the transcribed safe-area insets against ../shared/devices/devices.json (read
    /// only here, in a test; the library never reads it).
    func testEveryDeviceHasTheSourceTablesInsets() throws {
        let file = Corpus.root.deletingLastPathComponent().appendingPathComponent("devices/devices.json")
        guard FileManager.default.fileExists(atPath: file.path) else { throw XCTSkip("device source tables not found at \(file.path)") }
        let records = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])?["devices"] as? [[String: Any]])
        for record in records {
            let name = try XCTUnwrap(record["model"] as? String)
            let device = try XCTUnwrap(DeviceCatalog.devices.first { $0.name == name }, name)
            let insets = try XCTUnwrap(record["safe_area_portrait"] as? [String: Any], name)
            XCTAssertEqual(device.safeAreaInsets.top, insets["top"] as? Double, name)
            XCTAssertEqual(device.safeAreaInsets.bottom, insets["bottom"] as? Double, name)
        }
        XCTAssertEqual(records.count, DeviceCatalog.devices.count)
    }
}
