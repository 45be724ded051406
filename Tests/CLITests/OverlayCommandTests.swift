import Foundation
import ImgCache
import TestSupport
import XCTest

/// `imgcache overlay`: the screenshot at its size with each slot's 2-pixel outline exactly on the
/// table's coordinates, and the screenshot's own pixels just outside and just inside.
final class OverlayCommandTests: XCTestCase {
    /// Outline colours as documented: small yellow, medium green, large pink.
    private let colours: [String: [UInt8]] = ["small": [255, 214, 10, 255], "medium": [48, 209, 88, 255], "large": [255, 55, 95, 255]]

    /// What the overlay shows at (x, y): the outline of the topmost slot (small over medium over
    /// large) whose 2-pixel border covers it, else the screenshot.
    private func expected(_ x: Int, _ y: Int, _ slots: [WidgetSlot], _ screenshot: Bitmap) -> [UInt8] {
        let order = ["small", "medium", "large"]
        for slot in slots.sorted(by: { order.firstIndex(of: $0.family.rawValue)! < order.firstIndex(of: $1.family.rawValue)! }) {
            let r = slot.rect
            guard x >= r.x, x < r.maxX, y >= r.y, y < r.maxY else { continue }
            if x < r.x + 2 || x >= r.maxX - 2 || y < r.y + 2 || y >= r.maxY - 2 { return colours[slot.family.rawValue]! }
        }
        return pixel(screenshot, x, y)
    }

    private func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * bitmap.width + x) * 4
        return Array(bitmap.pixels[offset..<offset + 4])
    }

    func testOutlinesAreTwoPixelsOnEachSlotsEdgesAndTheRestIsTheScreenshot() throws {
        let layouts: [(PixelSize, IconLayout)] = [
            (PixelSize(width: 640, height: 1136), .small), (PixelSize(width: 750, height: 1334), .small),
            (PixelSize(width: 750, height: 1334), .large),
        ]
        for (size, icons) in layouts {
            let layout = try HomeScreenLayout.resolve(screenshot: size, icons: icons)
            let screenshot = try HomeScreenshot.bitmap(size: size, painted: [])
            let folder = try CLIRunner.temporaryFolder()
            try HomeScreenshot.png(screenshot).write(to: folder.appendingPathComponent("home.png"))
            let result = try CLIRunner.run(["overlay", "home.png", "--icons", icons.rawValue, "-o", "overlay.png"], in: folder)
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertTrue(result.output.hasPrefix("overlay.png: \(size) PNG, \(layout.slots.count) slots outlined"), result.output)
            let overlay = try ImageDecoder.decode(.file(path: folder.appendingPathComponent("overlay.png").path)).frames[0].bitmap
            XCTAssertEqual(overlay.size, size)
            for slot in layout.slots {
                let r = slot.rect, midX = r.x + r.width / 2, midY = r.y + r.height / 2
                // Across each edge at its middle: one pixel outside, the two of the outline, one inside.
                let border = [r.x, r.x + 1, r.maxX - 2, r.maxX - 1].map { ($0, midY) } + [r.y, r.y + 1, r.maxY - 2, r.maxY - 1].map { (midX, $0) }
                let beside = [r.x - 1, r.x + 2, r.maxX - 3, r.maxX].map { ($0, midY) } + [r.y - 1, r.maxY - 3, r.maxY].map { (midX, $0) }
                for (x, y) in border + beside {
                    XCTAssertEqual(pixel(overlay, x, y), expected(x, y, layout.slots, screenshot), "\(size) \(icons) \(slot.name) at \(x),\(y)")
                }
                for (x, y) in border {
                    XCTAssertTrue(colours.values.contains(pixel(overlay, x, y)), "\(size) \(icons) \(slot.name): \(x),\(y) is outlined")
                }
            }
            XCTAssertEqual(pixel(overlay, size.width / 2, size.height - 3), pixel(screenshot, size.width / 2, size.height - 3))
        }
    }

    func testBadInputIsOneLineAndExitTwoAndADamagedScreenshotExitFour() throws {
        let folder = try CLIRunner.temporaryFolder()
        let (se, cut) = try CLIRunner.seScreenshots(in: folder)
        let cases: [(arguments: [String], status: Int32, message: String)] = try [
            ([se], 2, "-o OUT.png is required"),
            ([se, "-o", "o.gif"], 2, "the overlay is PNG or JPEG"),
            ([cut, "-o", "o.png"], 4, "corrupt PNG image"),
        ] + CLIRunner.screenshotFailures(in: folder, options: ["-o", "o.png"])
        try CLIRunner.assertFailures("overlay", cases, in: folder)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("o.png").path))
    }
}
