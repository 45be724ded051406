import Foundation
import ImgCache
import ImgCacheServerURLs
import XCTest

/// `sl:` waits for the screenshot's size, then cuts what the CLI's `slice` and
/// `WallpaperSlicer.request(for:ofScreenshotAt:)` cut.
final class ServeSliceTests: XCTestCase {
    private let url = ServeParsing.sourceURL

    private func slice(_ options: [String]) throws -> ServeSlice {
        let serve = try ServeParsing.unsigned.parse(path: ServeParsing.path(options))
        guard case .slice(let slice) = serve.plan else { throw ServeURLError.notFound("\(options) is no slice") }
        XCTAssertNil(serve.imageRequest)
        return slice
    }

    func testASliceWaitsForTheScreenshotAndIsItsSlotsExactPixels() throws {
        let iOS18 = try slice(["sl:medium:top::18"])
        XCTAssertEqual(iOS18.family, .medium)
        XCTAssertEqual(iOS18.position, .top)
        XCTAssertEqual(iOS18.icons, .small)
        XCTAssertEqual(iOS18.iOS, 18)
        XCTAssertNil(iOS18.device)
        XCTAssertEqual(iOS18.request, ImageRequest(url: url, outputFormat: .png, colorPolicy: .keep))
        XCTAssertEqual(
            try iOS18.request(screenshotSize: PixelSize(width: 1206, height: 2622)),
            ImageRequest(url: url, outputFormat: .png, sourceRegion: PixelRect(x: 87, y: 261, width: 1032, height: 486), colorPolicy: .keep))
        // Without a version, the newest with numbers for the screenshot, as `imgcache slice`: iOS 26 for the 16 Pro.
        let newest = try slice(["sl:medium:top"])
        XCTAssertNil(newest.iOS)
        XCTAssertEqual(
            try newest.request(screenshotSize: PixelSize(width: 1206, height: 2622)).sourceRegion,
            try HomeScreenLayout.memoised(screenshot: PixelSize(width: 1206, height: 2622)).slots.first { $0.name == "medium-top" }?.rect)
        XCTAssertEqual(try HomeScreenLayout.memoised(screenshot: PixelSize(width: 1206, height: 2622)).iOS.lowerBound, 26)
    }

    /// Every slot of every screenshot size a layout knows without a device resolves to the request
    /// the library's slicer makes for it.
    func testEverySlotOfEveryKnownScreenshotSizeIsTheSlicersRequest() throws {
        var slots = 0
        for size in HomeScreenLayout.knownScreenshotSizes.sorted(by: { ($0.width, $0.height) < ($1.width, $1.height) }) {
            // `sl:` without a version means the newest with numbers for the size, as the CLI's `slice`.
            guard let layout = try? HomeScreenLayout.memoised(screenshot: size) else { continue }
            for slot in layout.slots {
                let request = try slice(["sl:\(slot.family.rawValue):\(slot.position.rawValue)"]).request(screenshotSize: size)
                XCTAssertEqual(request, WallpaperSlicer.request(for: slot, ofScreenshotAt: url), "\(size) \(slot.name)")
                slots += 1
            }
        }
        XCTAssertGreaterThanOrEqual(slots, 150)
    }

    func testOptionsBesideASliceApplyToIt() throws {
        let device = try ServeParsing.device("iPhone 16 Pro")
        let region = PixelRect(x: 87, y: 872, width: 1032, height: 1098)
        let screenshot = PixelSize(width: 1206, height: 2622)
        XCTAssertEqual(
            try slice(["sl:large:bottom::18", "f:jpg", "q:90", "cp:convert"]).request(screenshotSize: screenshot),
            ImageRequest(url: url, outputFormat: .jpeg(quality: 90), sourceRegion: region))
        XCTAssertEqual(
            try slice(["rs:fit:516:549", "slice:large:bottom::18", "cb:3"]).request(screenshotSize: screenshot),
            ImageRequest(
                url: url, target: .pixels(PixelSize(width: 516, height: 549)), outputFormat: .png, sourceRegion: region, colorPolicy: .keep,
                cacheKey: ServeParsing.source + " cachebuster:3"))
        let withDevice = try slice(["sl:large:bottom::18", "wd:iphone-16-pro:large"])
        XCTAssertEqual(withDevice.device, device)
        XCTAssertEqual(
            try withDevice.request(screenshotSize: screenshot),
            ImageRequest(
                url: url, target: .widget(.large, device: device), contentMode: .crop, outputFormat: .png, sourceRegion: region,
                colorPolicy: .keep))
    }

    /// The 1125x2436 screenshots of two phone classes need `wd:` to pick the layout; a `wd:` phone
    /// whose screenshots have another size is refused.
    func testTheWidgetsDevicePicksAndChecksTheLayout() throws {
        let shared = PixelSize(width: 1125, height: 2436)
        guard case .invalidOption("sl", let detail)? = Self.error(try slice(["sl:small:top-left"]), shared) else {
            return XCTFail("a 1125x2436 slice resolved without a device")
        }
        XCTAssertTrue(detail.contains("add wd:DEVICE:FAMILY"), detail)
        let x = try slice(["sl:small:top-left", "wd:iphone-x:small"]).request(screenshotSize: shared).sourceRegion
        let mini = try slice(["sl:small:top-left", "wd:iphone-12-mini:small"]).request(screenshotSize: shared).sourceRegion
        XCTAssertNotNil(x)
        XCTAssertNotNil(mini)
        XCTAssertNotEqual(x, mini)
        guard case .invalidOption("sl", let mismatch)? = Self.error(
            try slice(["sl:medium:top", "wd:iphone-16-pro:medium"]), PixelSize(width: 1320, height: 2868))
        else { return XCTFail("a 16 Pro Max screenshot sliced as a 16 Pro's") }
        XCTAssertTrue(mismatch.contains("1206x2622"), mismatch)
    }

    func testScreenshotsNoLayoutDescribesAreBadRequests() throws {
        let medium = try slice(["sl:medium:top"])
        for size in [PixelSize(width: 2622, height: 1206), PixelSize(width: 0, height: 0)] {
            let error = Self.error(medium, size)
            guard case .invalidOption("sl", _)? = error else { return XCTFail("\(size): \(String(describing: error))") }
            XCTAssertEqual(error?.httpStatus, 400)
        }
        // The 4-inch SE has two rows of widgets: no large one at the bottom.
        XCTAssertEqual(
            Self.error(try slice(["sl:large:bottom"]), PixelSize(width: 640, height: 1136)),
            .invalidOption(name: "sl", detail: "this layout has no large widget at bottom (it has top)"))
        XCTAssertNoThrow(try slice(["sl:medium:top:large"]).request(screenshotSize: PixelSize(width: 1206, height: 2622)))
        XCTAssertNoThrow(try slice(["sl:medium:top::16"]).request(screenshotSize: PixelSize(width: 1170, height: 2532)))
    }

    func testBadSliceArgumentsAreRefused() {
        let cases: [(String, ServeURLError)] = [
            ("sl:medium", .invalidOption(name: "sl", detail: "takes 2 to 4 arguments (sl:FAMILY:POSITION[:ICONS[:IOS]]), not 1")),
            ("sl:medium:top:small:18:x", .invalidOption(name: "sl", detail: "takes 2 to 4 arguments (sl:FAMILY:POSITION[:ICONS[:IOS]]), not 5")),
            ("sl::top", .invalidOption(name: "sl", detail: "widget family is empty")),
            ("sl:medium:", .invalidOption(name: "sl", detail: "position is empty")),
            ("sl:extra-large:top", .invalidOption(name: "sl", detail: "a home-screen slot is of a small, medium or large widget, not 'extra-large'")),
            ("sl:medium:top-left", .invalidOption(name: "sl", detail: "a medium widget sits at top, middle, bottom, not 'top-left'")),
            ("sl:small:top", .invalidOption(
                name: "sl", detail: "a small widget sits at top-left, top-right, middle-left, middle-right, bottom-left, bottom-right, not 'top'")),
            ("sl:medium:top:huge", .invalidOption(name: "sl", detail: "icon layout 'huge' is not one of small, large")),
            ("sl:medium:top:large:17", .invalidOption(name: "sl", detail: "large icons came with iOS 18, not 17")),
            ("sl:medium:top::13", .invalidOption(name: "sl", detail: "iOS version 13 is not in 14...999")),
            ("sl:medium:top::x", .invalidOption(name: "sl", detail: "iOS version 'x' is not a whole number from 14 to 999")),
        ]
        for (option, expected) in cases {
            XCTAssertEqual(ServeParsing.error(options: [option]), expected, option)
        }
    }

    private static func error(_ slice: ServeSlice, _ size: PixelSize) -> ServeURLError? {
        do {
            _ = try slice.request(screenshotSize: size)
            return nil
        } catch {
            return error
        }
    }
}
