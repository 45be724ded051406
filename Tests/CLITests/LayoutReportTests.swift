import Foundation
import XCTest
@testable import ImgCache
@testable import ImgCacheCommandLine

/// How `layout`, `slice` and `overlay` show a layout: an estimated one says so in every form, with its
/// expected error, and a measured one says where it was measured.
final class LayoutReportTests: XCTestCase {
    private func layout(expectedErrorPixels: Int?) throws -> HomeScreenLayout {
        let measured = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 1206, height: 2622))
        return HomeScreenLayout(
            screenshotSize: measured.screenshotSize, scale: measured.scale, icons: measured.icons, iOS: measured.iOS,
            grid: measured.grid, source: expectedErrorPixels == nil ? measured.source : "grid model fitted on the measured tables",
            models: expectedErrorPixels == nil ? measured.models : "", expectedErrorPixels: expectedErrorPixels)
    }

    func testAnEstimatedLayoutIsFlaggedWithItsExpectedErrorInJSONAndText() throws {
        let estimated = try layout(expectedErrorPixels: 9)
        let fields = LayoutReport.fields(estimated)
        XCTAssertEqual(fields["estimated"] as? Bool, true)
        XCTAssertEqual(fields["expected_error_px"] as? Int, 9)
        XCTAssertEqual(fields["source"] as? String, "grid model fitted on the measured tables")
        XCTAssertEqual(LayoutReport.summary(estimated),
                       "1206x2622 @3x, small icons, iOS 18 and later\nestimated (expected error about 9 px): grid model fitted on the measured tables")
        XCTAssertEqual(LayoutReport.caption(estimated), "1206x2622, small icons, iOS 18+: ESTIMATED, expected error about 9 px")
    }

    func testAMeasuredLayoutSaysWhereAndOnWhichModels() throws {
        let measured = try layout(expectedErrorPixels: nil)
        let fields = LayoutReport.fields(measured)
        XCTAssertEqual(fields["estimated"] as? Bool, false)
        XCTAssertTrue(fields["expected_error_px"] is NSNull)
        XCTAssertEqual(fields["ios"] as? [String: AnyHashable], ["from": 18, "to": NSNull()])
        XCTAssertEqual(LayoutReport.summary(measured).split(separator: "\n").last,
                       "measured: mzeryck/Widget-Blur widget-blur.js @bd85184a3b93 (2024-10-04), phoneSizes(); models 16 Pro")
        XCTAssertEqual(LayoutReport.caption(measured), "1206x2622, small icons, iOS 18+: measured (16 Pro)")
        let slot = try measured.slot(.small, at: .middleRight)
        XCTAssertEqual(LayoutReport.text(slot.rect), "633,872 486x486")
        XCTAssertEqual(LayoutReport.text(slot.rect, scale: 3), "211,290.67 162x162")
    }
}
