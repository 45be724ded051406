import Foundation
import XCTest
@testable import ImgCache
@testable import ImgCacheCommandLine

/// How `layout`, `slice` and `overlay` show a layout: an estimated one says so in every form, with its
/// expected error, and a measured one says where it was measured.
final class LayoutReportTests: XCTestCase {
    private func layout(expectedErrorPixels: Int?) throws -> HomeScreenLayout {
        let measured = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 1206, height: 2622), iOS: 18)
        let estimated = expectedErrorPixels != nil
        return HomeScreenLayout(
            screenshotSize: measured.screenshotSize, scale: measured.scale, icons: measured.icons, iOS: measured.iOS,
            measuredOn: measured.measuredOn, grid: measured.grid,
            source: estimated ? "grid model fitted on the measured tables" : measured.source,
            models: estimated ? "" : measured.models, isEstimated: estimated, confirmed: !estimated,
            provenance: estimated ? "estimated" : measured.provenance, expectedErrorPixels: expectedErrorPixels, comparisons: [])
    }

    func testAnEstimatedLayoutIsFlaggedWithItsExpectedErrorInJSONAndText() throws {
        let estimated = try layout(expectedErrorPixels: 9)
        let fields = LayoutReport.fields(estimated)
        XCTAssertEqual(fields["estimated"] as? Bool, true)
        XCTAssertEqual(fields["expected_error_px"] as? Int, 9)
        XCTAssertEqual(fields["source"] as? String, "grid model fitted on the measured tables")
        XCTAssertEqual(LayoutReport.summary(estimated),
                       "1206x2622 @3x, small icons, iOS 18\nestimated (expected error about 9 px): grid model fitted on the measured tables")
        XCTAssertEqual(LayoutReport.caption(estimated), "1206x2622, small icons, iOS 18: ESTIMATED, expected error about 9 px")
    }

    func testAMeasuredLayoutSaysWhereAndOnWhichModels() throws {
        let measured = try layout(expectedErrorPixels: nil)
        let fields = LayoutReport.fields(measured)
        XCTAssertEqual(fields["estimated"] as? Bool, false)
        XCTAssertTrue(fields["expected_error_px"] is NSNull)
        XCTAssertEqual(fields["ios"] as? [String: Int], ["from": 18, "to": 18, "measured_on": 18])
        XCTAssertEqual(fields["confirmed"] as? Bool, true)
        XCTAssertEqual(LayoutReport.summary(measured).split(separator: "\n").map(String.init), [
            "1206x2622 @3x, small icons, iOS 18",
            "measured: mzeryck/Widget-Blur widget-blur.js @bd85184a3b93 (2024-10-04), phoneSizes(); models 16 Pro",
            "confirmed for iOS 18: \"Supported devices: The following device measurements have been confirmed in iOS 18.\"",
        ])
        XCTAssertEqual(LayoutReport.caption(measured), "1206x2622, small icons, iOS 18: measured (16 Pro)")
        let slot = try measured.slot(.small, at: .middleRight)
        XCTAssertEqual(LayoutReport.text(slot.rect), "633,872 486x486")
        XCTAssertEqual(LayoutReport.text(slot.rect, scale: 3), "211,290.67 162x162")
    }
}

extension LayoutReportTests {
    /// A row its source did not confirm says so with the source's words and its expected error,
    /// and a source that disagrees by more than 3 px gets a line of its own.
    func testAnUnconfirmedRowAndADisagreeingSourceAreSaid() throws {
        let carried = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 1170, height: 2532), iOS: 18)
        XCTAssertFalse(carried.isEstimated)
        XCTAssertFalse(carried.confirmed)
        XCTAssertEqual(carried.expectedErrorPixels, 30)
        XCTAssertEqual(LayoutReport.summary(carried).split(separator: "\n")[2],
                       "not confirmed for iOS 18 (expected error about 30 px): \"In-limbo devices: The following device measurements "
                       + "were confirmed in older versions of iOS. Please comment if you can confirm these for iOS 18.\"")
        XCTAssertEqual(LayoutReport.caption(carried),
                       "1170x2532, small icons, iOS 18: measured (14, 13, 13 Pro, 12, 12 Pro), not confirmed for iOS 18, expected error about 30 px")
        let sixteen = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 1179, height: 2556), iOS: 16)
        XCTAssertEqual(LayoutReport.versions(sixteen), "iOS 16-17 (measured on iOS 16)")
        let disputed = HomeScreenLayout(
            screenshotSize: carried.screenshotSize, scale: carried.scale, icons: carried.icons, iOS: carried.iOS,
            measuredOn: carried.measuredOn, grid: carried.grid, source: carried.source, models: carried.models, isEstimated: false,
            confirmed: true, provenance: "confirmed", expectedErrorPixels: nil,
            comparisons: [.init(source: "other/script a.js", largestDifferencePixels: 3), .init(source: "other/script b.js", largestDifferencePixels: 4)])
        XCTAssertEqual(disputed.disagreements.map(\.source), ["other/script b.js"])
        XCTAssertEqual(LayoutReport.summary(disputed).split(separator: "\n").last,
                       "sources disagree: other/script b.js puts slots up to 4 px elsewhere")
        let fields = try XCTUnwrap(LayoutReport.fields(disputed)["other_sources"] as? [[String: Any]])
        XCTAssertEqual(fields.compactMap { $0["disagrees"] as? Bool }, [false, true])
    }
}
