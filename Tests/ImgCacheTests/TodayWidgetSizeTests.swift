import XCTest
import ImgCache

/// The iOS 10 Today extension sizes against their sources' numbers.
final class TodayWidgetSizeTests: XCTestCase {
    func testCompactHeightsFollowTheSevenTextSizes() throws {
        XCTAssertEqual(TodayTextSize.allCases.map(\.compactHeight), [95, 100, 105, 110, 120, 135, 140])
        let eight = try DeviceCatalog.device(named: "iPhone 8")
        let standard = try TodayWidgetSize.compact().dimensions(on: eight)
        XCTAssertEqual(standard.points, PointSize(width: 359, height: 110))
        XCTAssertNil(standard.estimate)
        XCTAssertTrue(standard.heightSource.contains("PSPDFKit"), standard.heightSource)
        XCTAssertEqual(try TodayWidgetSize.compact(.xs).dimensions(on: eight).points.height, 95)
        XCTAssertEqual(try TodayWidgetSize.compact(.xxxl).dimensions(on: eight).heightSource, "PSPDFKit blog 'Today widget' (2017)")
        XCTAssertEqual(try TodayWidgetSize.compact(.xl).dimensions(on: eight).heightSource, "imgcache product requirements (no public source)")
        let resolved = try ImageTarget.today(.compact(.m), device: eight).resolve()
        XCTAssertEqual(resolved.pixels, PixelSize(width: 718, height: 210))
        XCTAssertEqual(resolved.scale, 2)
        XCTAssertFalse(resolved.isEstimated)
    }

    func testExpandedHeightsDependOnWhereTheWidgetIsOpened() throws {
        let eight = try DeviceCatalog.device(named: "iPhone 8")
        XCTAssertEqual(try TodayWidgetSize.expanded().dimensions(on: eight).points, PointSize(width: 359, height: 616))
        XCTAssertEqual(try TodayWidgetSize.expanded(.notificationCenter).dimensions(on: eight).points, PointSize(width: 359, height: 528))
        // 528 pt is also the 320-pt iPhone's Today view maximum (the 5s simulator logs).
        let se = try DeviceCatalog.device(named: "iPhone SE (1st generation)")
        XCTAssertEqual(try TodayWidgetSize.expanded().dimensions(on: se).points, PointSize(width: 304, height: 528))
        XCTAssertThrowsError(try TodayWidgetSize.expanded(.notificationCenter).dimensions(on: se))
        let plus = try DeviceCatalog.device(named: "iPhone 8 Plus")
        let landscape = try TodayWidgetSize.expanded(landscape: true).dimensions(on: plus)
        XCTAssertEqual(landscape.points, PointSize(width: 398, height: 352))
        XCTAssertEqual(landscape.heightSource, "imgcache product requirements (no public source)")
        XCTAssertNotNil(landscape.estimate, "no source gives the landscape width")
        XCTAssertNil(landscape.estimate?.expectedErrorPixels)
        XCTAssertEqual(try TodayWidgetSize.expanded(.notificationCenter, landscape: true).dimensions(on: plus).points.height, 264)
        XCTAssertThrowsError(try TodayWidgetSize.expanded().dimensions(on: plus)) { error in
            guard case .invalidArgument(let message)? = error as? ImgCacheError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("no source gives the today-expanded (today-view) height"), message)
        }
        let resolved = try ImageTarget.today(.expanded(.notificationCenter, landscape: true), device: plus).resolve()
        XCTAssertEqual(resolved.pixels, PixelSize(width: 1194, height: 792))
        XCTAssertTrue(resolved.isEstimated)
    }

    func testWidgetTargetsCarryTheEstimateFlag() throws {
        let air = try ImageTarget.widget(.medium, device: DeviceCatalog.device(named: "iPhone Air")).resolve()
        XCTAssertEqual(air.pixels, PixelSize(width: 1083, height: 507))
        XCTAssertTrue(air.isEstimated)
        XCTAssertEqual(air.expectedErrorPixels, 24)
        XCTAssertFalse(try ImageTarget.widget(.medium, device: DeviceCatalog.device(named: "iPhone 16")).resolve().isEstimated)
    }
}
