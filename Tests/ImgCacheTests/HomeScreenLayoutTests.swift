import XCTest
@testable import ImgCache

/// The measured home-screen layouts: every slot's rectangle follows from its table row, and the
/// choice of table follows the screenshot size, icon layout, iOS version and phone class.
final class HomeScreenLayoutTests: XCTestCase {
    /// Every rectangle of every table entry against the numbers of the row: columns at left and
    /// right, rows at top, middle and bottom, small squares, medium rows, large double rows.
    func testEveryRectangleFollowsItsTableRow() {
        var checked = 0
        for table in HomeScreenTables.all {
            for entry in table.entries {
                let grid = entry.grid
                let slots = Dictionary(uniqueKeysWithValues: grid.slots.map { ($0.name, $0.rect) })
                let rows = [("top", grid.top), ("middle", grid.middle)] + (grid.bottom.map { [("bottom", $0)] } ?? [])
                XCTAssertEqual(slots.count, rows.count * 3 + rows.count - 1, "\(entry.screenshot) \(entry.models)")
                for (row, y) in rows {
                    XCTAssertEqual(slots["small-\(row)-left"], PixelRect(x: grid.left, y: y, width: grid.small, height: grid.small))
                    XCTAssertEqual(slots["small-\(row)-right"], PixelRect(x: grid.right, y: y, width: grid.small, height: grid.small))
                    XCTAssertEqual(slots["medium-\(row)"], PixelRect(x: grid.left, y: y, width: grid.medium, height: grid.small))
                }
                XCTAssertEqual(slots["large-top"], PixelRect(x: grid.left, y: grid.top, width: grid.medium, height: grid.large))
                XCTAssertEqual(slots["large-bottom"], grid.bottom.map { _ in
                    PixelRect(x: grid.left, y: grid.middle, width: grid.medium, height: grid.large)
                })
                for slot in grid.slots {
                    XCTAssertTrue(slot.rect.fits(in: entry.screenshot), "\(slot.name) \(slot.rect) in \(entry.screenshot)")
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 21 + 11 + 9)
    }

    func testTablesAreChosenBySizeIconsAndIOSVersion() throws {
        let pro = PixelSize(width: 1206, height: 2622)
        let large = try XCTUnwrap(HomeScreenLayout.measured(screenshot: pro, icons: .large, iOS: 18))
        XCTAssertEqual(try large.slot(.small, at: .topLeft).rect, PixelRect(x: 84, y: 270, width: 495, height: 495))
        XCTAssertEqual(try large.slot(.large, at: .bottom).rect, PixelRect(x: 84, y: 810, width: 1037, height: 1035))
        XCTAssertEqual(large.scale, 3)
        XCTAssertFalse(large.isEstimated)
        XCTAssertTrue(large.source.hasPrefix("mzeryck/Widget-Blur"))
        // iOS 16 moved the rows: the 2022 table's 2556 top row is at 270, iOS 18's at 240.
        let phone = PixelSize(width: 1179, height: 2556)
        XCTAssertEqual(try HomeScreenLayout.measured(screenshot: phone, iOS: 16)?.grid.top, 270)
        XCTAssertEqual(try HomeScreenLayout.measured(screenshot: phone, iOS: 18)?.grid.top, 240)
        XCTAssertEqual(try HomeScreenLayout.measured(screenshot: phone, iOS: 16)?.iOS, 16...17)
        // iOS 14's table has Display Zoom sizes the later ones lack, and lacks the newer phones.
        XCTAssertNotNil(try HomeScreenLayout.measured(screenshot: PixelSize(width: 750, height: 1624), iOS: 14))
        XCTAssertNil(try HomeScreenLayout.measured(screenshot: pro, iOS: 14))
        // No table measured iOS 26: the 16 Pro's layout there is no measured one.
        XCTAssertNil(try HomeScreenLayout.measured(screenshot: pro, iOS: 26))
        XCTAssertNil(try HomeScreenLayout.measured(screenshot: PixelSize(width: 1170, height: 2532), icons: .large))
    }

    func testThe2436PixelPhonesNeedTheDeviceAndTheMiniSitsLower() throws {
        let size = PixelSize(width: 1125, height: 2436)
        XCTAssertThrowsError(try HomeScreenLayout.measured(screenshot: size)) { error in
            guard case .invalidArgument(let message)? = error as? ImgCacheError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("iPhone X / XS / 11 Pro or iPhone 12 mini / 13 mini"), message)
        }
        let mini = try HomeScreenLayout.measured(screenshot: size, device: DeviceCatalog.device(named: "iPhone 13 mini"))
        let x = try HomeScreenLayout.measured(screenshot: size, device: DeviceCatalog.device(named: "iPhone 11 Pro"))
        XCTAssertEqual(mini?.grid.top, 231)
        XCTAssertEqual(x?.grid.top, 213)
        XCTAssertEqual(try HomeScreenLayout.measured(screenshot: size, iOS: 16, device: DeviceCatalog.device(named: "iPhone 12 mini"))?.grid.middle, 801)
    }

    func testTheFourInchSEHasTwoRowsAndFewerSlots() throws {
        let layout = try XCTUnwrap(HomeScreenLayout.measured(screenshot: PixelSize(width: 640, height: 1136), iOS: 14))
        XCTAssertEqual(layout.slots.map(\.name), [
            "small-top-left", "small-top-right", "small-middle-left", "small-middle-right", "medium-top", "medium-middle", "large-top",
        ])
        XCTAssertThrowsError(try layout.slot(.large, at: .bottom)) { error in
            XCTAssertEqual(error as? ImgCacheError, .invalidArgument("this layout has no large widget at bottom (it has top)"))
        }
    }

    func testWhatNoLayoutDescribesIsRefused() throws {
        let cases: [(PixelSize, Int, String?, String)] = [
            (PixelSize(width: 2622, height: 1206), 18, nil, "landscape"),
            (PixelSize(width: 1206, height: 2622), 13, nil, "no widgets on the home screen"),
            (PixelSize(width: 1206, height: 2622), 18, "iPad Air 2", "is an iPad"),
            (PixelSize(width: 1206, height: 2622), 18, "iPhone SE (3rd generation)", "screenshots are 750x1334"),
        ]
        for (size, iOS, device, expected) in cases {
            XCTAssertThrowsError(try HomeScreenLayout.measured(screenshot: size, iOS: iOS, device: device.map { try DeviceCatalog.device(named: $0) })) { error in
                guard case .invalidArgument(let message)? = error as? ImgCacheError else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains(expected), message)
            }
        }
        // Display Zoom: a smaller screenshot of the phone's shape is the same phone.
        XCTAssertNotNil(try HomeScreenLayout.measured(
            screenshot: PixelSize(width: 960, height: 2079), device: DeviceCatalog.device(named: "iPhone 12 mini")))
    }
}
