import XCTest
@testable import ImgCache

/// Layouts no table measured are estimated by `resolve`, and say so: `isEstimated`, the expected
/// error of their method, and a source that starts with "estimated".
final class HomeScreenEstimateTests: XCTestCase {
    func testTheIPhoneAirIsEstimatedFromTheWholeModelAndSaysSo() throws {
        let size = PixelSize(width: 1260, height: 2736)
        XCTAssertNil(try HomeScreenLayout.measured(screenshot: size, iOS: 18))
        let air = try HomeScreenLayout.resolve(screenshot: size, iOS: 18)
        XCTAssertTrue(air.isEstimated)
        XCTAssertEqual(air.expectedErrorPixels, 39)
        XCTAssertTrue(air.source.hasPrefix("estimated: side margins, gaps, top row and widget sizes"), air.source)
        XCTAssertEqual(air.scale, 3)
        XCTAssertEqual(air.iOS.lowerBound, 18)
        // 169 pt like its 414- and 428-point neighbours; columns centred; three rows below a 68-pt safe area.
        XCTAssertEqual(air.grid, HomeScreenGrid(small: 507, medium: 1083, large: 1134, left: 89, right: 665, top: 287, middle: 915, bottom: 1543))
        XCTAssertEqual(air.slots.count, 11)
        for slot in air.slots { XCTAssertTrue(slot.rect.fits(in: size), "\(slot.name) \(slot.rect)") }
    }

    func testLargeIconsWhereOnlySmallWereMeasuredScaleTheMeasuredLayout() throws {
        let size = PixelSize(width: 1170, height: 2532)
        XCTAssertFalse(try HomeScreenLayout.resolve(screenshot: size).isEstimated)
        let large = try HomeScreenLayout.resolve(screenshot: size, icons: .large)
        XCTAssertTrue(large.isEstimated)
        XCTAssertEqual(large.icons, .large)
        XCTAssertEqual(large.expectedErrorPixels, 57)
        XCTAssertTrue(large.source.contains("the measured small-icon layout scaled as on the 5 screens measured with both"), large.source)
        // Bigger widgets than the measured 474 px, square spacing: the large widget is as tall as the medium is wide.
        XCTAssertEqual(large.grid, HomeScreenGrid(small: 492, medium: 1046, large: 1046, left: 62, right: 616, top: 236, middle: 790, bottom: 1345))
        XCTAssertThrowsError(try HomeScreenLayout.resolve(screenshot: size, icons: .large, iOS: 16)) { error in
            guard case .invalidArgument(let message)? = error as? ImgCacheError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("came with iOS 18"), message)
        }
    }

    func testOlderIOSVersionsUseTheirOwnTableAndThePublishedSizes() throws {
        // iOS 14's table lacks the 12 Pro Max: its HIG sizes give the columns, the iOS 14 fit the rows.
        let layout = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 1284, height: 2778), iOS: 14)
        XCTAssertTrue(layout.isEstimated)
        XCTAssertEqual(layout.iOS, 14...15)
        XCTAssertEqual(layout.expectedErrorPixels, 4)
        XCTAssertTrue(layout.source.hasPrefix("estimated: published widget sizes, rows from the grid model fitted on 9"), layout.source)
        XCTAssertEqual(layout.grid, HomeScreenGrid(small: 510, medium: 1092, large: 1146, left: 96, right: 678, top: 242, middle: 878, bottom: 1514))
    }

    func testDisplayZoomAndSharedSizesNeedTheDevice() throws {
        let zoomed = PixelSize(width: 1035, height: 2250)
        XCTAssertThrowsError(try HomeScreenLayout.resolve(screenshot: zoomed)) { error in
            guard case .invalidArgument(let message)? = error as? ImgCacheError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("give --device"), message)
        }
        let pro = try HomeScreenLayout.resolve(screenshot: zoomed, device: DeviceCatalog.device(named: "iPhone 16 Pro"))
        XCTAssertTrue(pro.isEstimated)
        XCTAssertEqual(pro.scale, 3)
        // The X and the 12 mini share 1125x2436 but not their safe areas: large icons need the device.
        let shared = PixelSize(width: 1125, height: 2436)
        XCTAssertThrowsError(try HomeScreenLayout.resolve(screenshot: shared, icons: .large)) { error in
            guard case .invalidArgument(let message)? = error as? ImgCacheError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("iPhone X / XS / 11 Pro or iPhone 12 mini / 13 mini"), message)
        }
        let mini = try HomeScreenLayout.resolve(screenshot: shared, icons: .large, device: DeviceCatalog.device(named: "iPhone 13 mini"))
        let x = try HomeScreenLayout.resolve(screenshot: shared, icons: .large, device: DeviceCatalog.device(named: "iPhone X"))
        XCTAssertEqual(mini.grid.top - x.grid.top, 18, "the mini's measured small-icon rows sit 18 px lower")
    }
}
