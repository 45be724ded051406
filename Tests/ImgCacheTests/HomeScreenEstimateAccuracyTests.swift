import Foundation
import XCTest
@testable import ImgCache

/// How close the estimator comes to the measured layouts: each iOS 18 table (screenshot size x
/// icon layout) is hidden, estimated from the others, and compared slot by slot.
final class HomeScreenEstimateAccuracyTests: XCTestCase {
    func testLeaveOneOutOverTheIOS18Tables() throws {
        let fit = try XCTUnwrap(HomeScreenEstimator.fits.first)
        XCTAssertEqual(fit.table.iOS.lowerBound, 18)
        let rows = fit.leaveOneOut.rows
        XCTAssertEqual(rows.count, 21, "every iOS 18 table is estimated")
        print("[leave-one-out] iOS 18 tables: worst error over all slots, in the table's pixels and in 3x pixels (points x 3)")
        for row in rows {
            let entry = row.entry, scale = Double(entry.scale)
            let label = "\(entry.screenshot) \(entry.icons.rawValue) icons\(entry.phone.map { " (\($0))" } ?? "")"
            print(String(format: "[leave-one-out] %@: %.0f px @%dx = %.1f px at 3x via %@; whole model alone %.1f px at 3x",
                         label.padding(toLength: 52, withPad: " ", startingAt: 0), row.errorPoints * scale, entry.scale,
                         row.errorPoints * 3, row.method.rawValue, row.modelOnlyErrorPoints * 3))
        }
        let errors = rows.map { $0.errorPoints * 3 }, modelOnly = rows.map { $0.modelOnlyErrorPoints * 3 }
        print(String(format: "[leave-one-out] as resolve estimates: median %.1f px, worst %.1f px at 3x; the whole model alone: median %.1f, worst %.1f",
                     median(errors), errors.max()!, median(modelOnly), modelOnly.max()!))
        // The figures reached (the aim was 8 and 24); a change that makes them worse fails.
        XCTAssertLessThanOrEqual(median(errors), 8)
        XCTAssertLessThanOrEqual(errors.max()!, 57)
        XCTAssertLessThanOrEqual(median(modelOnly), 19)
        XCTAssertLessThanOrEqual(modelOnly.max()!, 79.5)
        // What limits them: the 16 Pro's large icons sit 24 pt per row tighter than any other
        // phone's, and the Plus's large widget is 6 pt taller than two rows of small ones.
        let worst = try XCTUnwrap(rows.max { $0.errorPoints < $1.errorPoints })
        XCTAssertEqual(worst.entry.screenshot, PixelSize(width: 1206, height: 2622))
        XCTAssertEqual(worst.entry.icons, .large)
        // With published widget sizes only the top row is modelled: within 8 px on every Face ID phone.
        XCTAssertEqual(try XCTUnwrap(fit.leaveOneOut.worstPoints(.rows, homeButton: false)) * 3, 8, accuracy: 0.01)
    }

    /// The expected error an estimate carries is the leave-one-out worst of its method and kind.
    func testExpectedErrorsComeFromTheLeaveOneOutFigures() throws {
        let leaveOneOut = try XCTUnwrap(HomeScreenEstimator.fits.first).leaveOneOut
        XCTAssertEqual(leaveOneOut.expectedErrorPixels(.rows, homeButton: false, scale: 3), 8)
        XCTAssertEqual(leaveOneOut.expectedErrorPixels(.rows, homeButton: true, scale: 3), 28)
        XCTAssertEqual(leaveOneOut.expectedErrorPixels(.grid, homeButton: false, scale: 3), 39)
        XCTAssertEqual(leaveOneOut.expectedErrorPixels(.largeFromMeasured, homeButton: false, scale: 3), 57)
        let air = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 1260, height: 2736), iOS: 18)
        XCTAssertEqual(air.expectedErrorPixels, leaveOneOut.expectedErrorPixels(.grid, homeButton: false, scale: 3))
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted(), middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
