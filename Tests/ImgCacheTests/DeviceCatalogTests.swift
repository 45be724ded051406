import Foundation
import XCTest
@testable import ImgCache

final class DeviceCatalogTests: XCTestCase {
    func testWidgetOnIPhone16ProIsItsPointSizeTimesThree() throws {
        let device = try DeviceCatalog.device(named: "iPhone 16 Pro")
        XCTAssertEqual(device.scale, 3)
        XCTAssertEqual(try device.widgetPixels(.small), PixelSize(width: 486, height: 486))
        XCTAssertEqual(try device.widgetPixels(.medium), PixelSize(width: 1032, height: 486))
        XCTAssertEqual(try device.widgetPixels(.large), PixelSize(width: 1032, height: 1098))
        let resolved = try ImageTarget.widget(.medium, device: device).resolve()
        XCTAssertEqual(resolved.points, PointSize(width: 344, height: 162))
        XCTAssertEqual(resolved.scale, 3)
    }

    func testPlusPhonesUseTheirUIKitScaleNotThePanel() throws {
        let plus = try DeviceCatalog.device(named: "iPhone 8 Plus")
        XCTAssertEqual(plus.scale, 3)
        XCTAssertEqual(plus.screenPixels, PixelSize(width: 1242, height: 2208))
        XCTAssertEqual(try plus.widgetPixels(.small), PixelSize(width: 471, height: 471))
    }

    func testIPadWidgetPixelsAreTheDeviceSizeTimesTwoAndTheCanvasIsKept() throws {
        let pad = try DeviceCatalog.device(named: "iPad Pro 12.9-inch (5th generation)")
        XCTAssertEqual(try pad.widgetPixels(.extraLarge), PixelSize(width: 1496, height: 712))
        XCTAssertEqual(pad.widgetCanvasSizes[.extraLarge], PointSize(width: 795, height: 378.5))
        let nineSeven = try DeviceCatalog.device(named: "iPad Air 2")
        XCTAssertEqual(try nineSeven.widgetPixels(.medium), PixelSize(width: 520, height: 240))
        XCTAssertEqual(nineSeven.widgetCanvasSizes[.medium], PointSize(width: 305.5, height: 141))
    }

    func testNamesMatchLooselyAndEveryModelNameIsUnique() throws {
        XCTAssertEqual(try DeviceCatalog.device(named: "iphone 16 pro").name, "iPhone 16 Pro / 17 / 17 Pro")
        XCTAssertEqual(try DeviceCatalog.device(named: "iPhone SE 3rd gen").screen, PointSize(width: 375, height: 667))
        XCTAssertEqual(try DeviceCatalog.device(named: "ipad pro 11 m4").screen, PointSize(width: 834, height: 1210))
        XCTAssertEqual(try DeviceCatalog.device(named: "iPhone 16").name, "iPhone 14 Pro / 15 / 15 Pro / 16")
        let names = DeviceCatalog.devices.flatMap(\.models).map(DeviceCatalog.normalized)
        XCTAssertEqual(Set(names).count, names.count, "two models normalise to the same name")
    }

    func testUnknownDeviceListsTheClosestNames() {
        XCTAssertThrowsError(try DeviceCatalog.device(named: "iPhone 16 Pr")) { error in
            guard case .unknownDevice(let name, let suggestions) = error as? ImgCacheError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "iPhone 16 Pr")
            XCTAssertEqual(suggestions.count, 3)
            XCTAssertEqual(suggestions.first, "iPhone 16 Pro")
        }
    }

    func testUnpublishedSizesAreATypedErrorUnlessTheHomeScreenModelEstimatesThem() throws {
        let air = try DeviceCatalog.device(named: "iPhone Air")
        XCTAssertThrowsError(try air.widgetPixels(.small)) {
            XCTAssertEqual($0 as? ImgCacheError, .widgetSizeUnknown(device: "iPhone Air", family: "small"))
        }
        XCTAssertThrowsError(try DeviceCatalog.device(named: "iPhone 15").widgetPixels(.extraLarge))
        // The Air's home-screen sizes are estimated, whole points, with the model's size error.
        let small = try air.widgetSize(.small), medium = try air.widgetSize(.medium), large = try air.widgetSize(.large)
        XCTAssertEqual(small.points, PointSize(width: 169, height: 169))
        XCTAssertEqual(medium.points, PointSize(width: 361, height: 169))
        XCTAssertEqual(large.points, PointSize(width: 361, height: 378))
        XCTAssertEqual(small.estimate?.expectedErrorPixels, 24)
        XCTAssertTrue(small.estimate?.basis.hasPrefix("no published size: the home-screen grid model") == true)
        XCTAssertNil(try DeviceCatalog.device(named: "iPhone 16").widgetSize(.small).estimate)
        XCTAssertThrowsError(try air.widgetSize(.accessoryCircular))
        XCTAssertThrowsError(try DeviceCatalog.device(named: "iPad Pro 11-inch (M4)").widgetSize(.small))
    }

    func testSafeAreasTellTheHomeButtonFromFaceID() throws {
        XCTAssertEqual(try DeviceCatalog.device(named: "iPhone Air").safeAreaInsets, SafeAreaInsets(top: 68, bottom: 34))
        XCTAssertEqual(try DeviceCatalog.device(named: "iPhone 13 mini").safeAreaInsets.top, 50)
        XCTAssertTrue(try DeviceCatalog.device(named: "iPhone SE (3rd generation)").hasHomeButton)
        XCTAssertFalse(try DeviceCatalog.device(named: "iPhone 16").hasHomeButton)
        XCTAssertTrue(try DeviceCatalog.device(named: "iPhone 16 Pro").widgetSizesFromScreenshots)
        XCTAssertFalse(try DeviceCatalog.device(named: "iPhone 16").widgetSizesFromScreenshots)
    }

    func testPointTargetsRoundHalfAwayFromZero() throws {
        let resolved = try ImageTarget.points(PointSize(width: 305.5, height: 141), scale: 3).resolve()
        XCTAssertEqual(resolved.pixels, PixelSize(width: 917, height: 423)) // 916.5 rounds up
        XCTAssertThrowsError(try ImageTarget.points(PointSize(width: 10, height: 10), scale: 0).resolve())
    }
}
