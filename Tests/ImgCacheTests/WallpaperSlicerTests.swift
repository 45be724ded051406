import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// `WallpaperSlicer` on synthetic screenshots of every measured size: each slot painted its own
/// colour over a gradient comes back as exactly that block of colour at the table's size.
final class WallpaperSlicerTests: XCTestCase {
    /// A PNG screenshot of `layout`'s size with `slots` painted, and each slot's colour.
    private func screenshot(_ layout: HomeScreenLayout, painting slots: [WidgetSlot]) throws -> (png: Data, colours: [[UInt8]]) {
        let colours = slots.indices.map(HomeScreenshot.colour)
        let bitmap = try HomeScreenshot.bitmap(size: layout.screenshotSize, painted: zip(slots, colours).map { ($0.rect, $1) })
        return (HomeScreenshot.png(bitmap), colours)
    }

    /// Every entry of every table, resolved from its arguments, is the entry's grid; every distinct
    /// grid is then sliced, group by group of slots that do not overlap: each slice is its slot's
    /// size and every one of its pixels is the slot's colour (a slice one pixel off would take in
    /// the gradient or a neighbour).
    func testEveryMeasuredLayoutSlicesToExactlyItsSlotsPixels() throws {
        var sliced: [HomeScreenLayout] = []
        var entries = 0, slices = 0
        for table in HomeScreenTables.all {
            for entry in table.entries {
                let device = try entry.phone.map { try DeviceCatalog.device(named: $0) }
                let layout = try HomeScreenLayout.memoised(
                    screenshot: entry.screenshot, icons: entry.icons, iOS: table.iOS.lowerBound, device: device)
                XCTAssertEqual(layout.grid, entry.grid, "\(entry.screenshot) \(entry.models)")
                entries += 1
                guard !sliced.contains(where: { $0.screenshotSize == layout.screenshotSize && $0.grid == layout.grid }) else { continue }
                sliced.append(layout)
                for group in HomeScreenshot.disjointGroups(layout.slots) {
                    let (png, colours) = try screenshot(layout, painting: group)
                    let slicer = try WallpaperSlicer(screenshot: .data(png), layout: layout)
                    for (slice, colour) in zip(try slicer.slices(group), colours) {
                        XCTAssertEqual(slice.bitmap.size, slice.slot.rect.size, "\(layout.screenshotSize) \(slice.slot.name)")
                        XCTAssertTrue(HomeScreenshot.isFilled(slice.bitmap, with: colour), "\(layout.screenshotSize) \(slice.slot.name)")
                        slices += 1
                    }
                }
            }
        }
        XCTAssertEqual(entries, 41)
        XCTAssertEqual(sliced.count, 24, "distinct sizes and grids")
        XCTAssertEqual(slices, 24 * 11 - 4, "the 640x1136 grid has 7 slots")
    }

    /// A Display P3 screenshot (as iPhones take them) is sliced pixel for pixel, not converted, and
    /// each slice carries the profile so it shows as the wallpaper does; the request of a slice
    /// through the cache keeps them too.
    func testAScreenshotsPixelsAndColourProfileAreKept() throws {
        let layout = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 640, height: 1136))
        let slots = [try layout.slot(.small, at: .topLeft), try layout.slot(.medium, at: .middle)]
        let colours: [[UInt8]] = [[250, 20, 30, 255], [10, 240, 60, 255]]
        let bitmap = try HomeScreenshot.bitmap(size: layout.screenshotSize, painted: zip(slots, colours).map { ($0.rect, $1) })
        let png = try PNGEncoder.encode(bitmap, iccProfile: ColorFixtures.displayP3)
        let slices = try WallpaperSlicer(screenshot: .data(png), layout: layout).slices(slots)
        for (slice, colour) in zip(slices, colours) {
            XCTAssertTrue(HomeScreenshot.isFilled(slice.bitmap, with: colour), "\(slice.slot.name): stored pixels, unconverted")
            XCTAssertEqual(slice.iccProfile, ColorFixtures.displayP3, slice.slot.name)
        }
        let untagged = try WallpaperSlicer(screenshot: .data(HomeScreenshot.png(bitmap)), layout: layout).slices(slots)
        XCTAssertEqual(untagged.map(\.iccProfile), [nil, nil])
        let request = WallpaperSlicer.request(for: slots[0], ofScreenshotAt: URL(string: "https://example.com/home.png")!)
        XCTAssertEqual(request.colorPolicy, .keep)
    }

    func testOneSliceByFamilyAndPositionAndTheSlotsALayoutLacks() throws {
        let layout = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 640, height: 1136))
        let medium = try layout.slot(.medium, at: .middle)
        let (png, colours) = try screenshot(layout, painting: [medium])
        let slicer = try WallpaperSlicer(screenshot: .data(png))
        XCTAssertEqual(slicer.layout, layout)
        let slice = try slicer.slice(.medium, at: .middle)
        XCTAssertEqual(slice.size, PixelSize(width: 584, height: 282))
        XCTAssertTrue(HomeScreenshot.isFilled(slice, with: colours[0]))
        XCTAssertThrowsError(try slicer.slice(.large, at: .bottom)) { error in
            XCTAssertEqual(error as? ImgCacheError, .invalidArgument("this layout has no large widget at bottom (it has top)"))
        }
    }

    func testAJPEGScreenshotsSlicesAreItsDecodedPixels() throws {
        let layout = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 750, height: 1334), icons: .large)
        let bitmap = try HomeScreenshot.bitmap(size: layout.screenshotSize, painted: [])
        let jpeg = try JPEGEncoder.encode(bitmap, quality: 90)
        let full = try ImageDecoder.decode(.data(jpeg)).frames[0].bitmap
        let slices = try WallpaperSlicer(screenshot: .data(jpeg), icons: .large).slices()
        XCTAssertEqual(slices.map(\.slot), layout.slots)
        for slice in slices {
            XCTAssertEqual(slice.bitmap, try HomeScreenshot.crop(full, slice.slot.rect), slice.slot.name)
        }
    }

    func testScreenshotsNoLayoutDescribesAreRefused() throws {
        let layout = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 750, height: 1334))
        let other = try HomeScreenshot.png(HomeScreenshot.bitmap(size: PixelSize(width: 640, height: 1136), painted: []))
        XCTAssertThrowsError(try WallpaperSlicer(screenshot: .data(other), layout: layout)) { error in
            XCTAssertEqual(error as? ImgCacheError, .invalidArgument("the screenshot is 640x1136, the layout describes 750x1334 screenshots"))
        }
        let landscape = try HomeScreenshot.png(HomeScreenshot.bitmap(size: PixelSize(width: 1334, height: 750), painted: []))
        XCTAssertThrowsError(try WallpaperSlicer(screenshot: .data(landscape))) { error in
            guard case .invalidArgument(let message)? = error as? ImgCacheError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("landscape"), message)
        }
        XCTAssertThrowsError(try WallpaperSlicer(screenshot: .data(Data("not an image".utf8)))) { error in
            guard case .unsupportedFormat? = error as? ImgCacheError else { return XCTFail("\(error)") }
        }
    }

    func testMemoisedLayoutsAreTheResolvedOnesAndErrorsAreNotKept() throws {
        let size = PixelSize(width: 1179, height: 2556)
        for icons in IconLayout.allCases {
            for iOS in [14, 16, 18] {
                let resolved = Result { try HomeScreenLayout.resolve(screenshot: size, icons: icons, iOS: iOS) }
                let memoised = Result { try HomeScreenLayout.memoised(screenshot: size, icons: icons, iOS: iOS) }
                XCTAssertEqual(try? memoised.get(), try? resolved.get(), "\(icons) iOS \(iOS)")
                XCTAssertEqual(try? HomeScreenLayout.memoised(screenshot: size, icons: icons, iOS: iOS), try? resolved.get())
            }
        }
        let ambiguous = PixelSize(width: 1125, height: 2436)
        XCTAssertThrowsError(try HomeScreenLayout.memoised(screenshot: ambiguous))
        XCTAssertEqual(try HomeScreenLayout.memoised(screenshot: ambiguous, device: DeviceCatalog.device(named: "iPhone 13 mini")).grid.top, 231)
        XCTAssertThrowsError(try HomeScreenLayout.memoised(screenshot: ambiguous), "an error is thrown again, not kept")
    }

    func testKnownScreenshotSizesAreTheTablesAndTheCataloguesPhones() {
        let known = HomeScreenLayout.knownScreenshotSizes
        for size in [(1206, 2622), (960, 2079), (640, 1136), (1125, 2001), (1260, 2736)] {
            XCTAssertTrue(known.contains(PixelSize(width: size.0, height: size.1)), "\(size)")
        }
        XCTAssertFalse(known.contains(PixelSize(width: 1000, height: 2000)))
        XCTAssertFalse(known.contains(PixelSize(width: 2622, height: 1206)))
    }
}
