import Foundation
import ImgCache
import TestSupport
import XCTest

/// `imgcache slice` on synthetic screenshots of the smaller measured sizes: each slot painted its
/// own colour over a gradient comes out as exactly that block, alone or with `--all`; bad input
/// exits 2 (4 for a damaged screenshot) with one line.
final class SliceCommandTests: XCTestCase {
    /// The layouts whose screenshots are small enough to make many of: the 4-inch SE (two rows)
    /// and the 4.7-inch SE with both icon layouts.
    private let layouts: [(size: PixelSize, icons: IconLayout)] = [
        (PixelSize(width: 640, height: 1136), .small), (PixelSize(width: 750, height: 1334), .small),
        (PixelSize(width: 750, height: 1334), .large),
    ]

    /// Writes a screenshot of `size` with `slots` painted (each `HomeScreenshot.colour(index)`).
    private func writeScreenshot(_ size: PixelSize, painting slots: [WidgetSlot], to url: URL) throws {
        try HomeScreenshot.write(size: size, painted: slots.enumerated().map { ($1.rect, HomeScreenshot.colour($0)) }, to: url)
    }

    private func decoded(_ url: URL) throws -> Bitmap {
        try ImageDecoder.decode(.file(path: url.path)).frames[0].bitmap
    }

    /// Each slot alone, on a screenshot where the slots painted do not overlap: exactly its block.
    func testEverySlotSlicesToExactlyItsBlockOfColour() throws {
        var checked = 0
        for (size, icons) in layouts {
            let layout = try HomeScreenLayout.resolve(screenshot: size, icons: icons)
            for group in HomeScreenshot.disjointGroups(layout.slots) {
                let folder = try CLIRunner.temporaryFolder()
                let screenshot = folder.appendingPathComponent("home.png")
                try writeScreenshot(size, painting: group, to: screenshot)
                for (index, slot) in group.enumerated() {
                    let result = try CLIRunner.run([
                        "slice", screenshot.path, "--widget", slot.family.rawValue, "--position", slot.position.rawValue,
                        "--icons", icons.rawValue,
                    ], in: folder)
                    XCTAssertEqual(result.status, 0, result.errors)
                    let file = folder.appendingPathComponent("\(slot.name).png")
                    XCTAssertEqual(result.output, "\(slot.name).png: \(slot.name) \(slot.rect.x),\(slot.rect.y) \(slot.rect.size) "
                        + "(PNG, \(try Data(contentsOf: file).count) bytes)\n")
                    let written = try decoded(file)
                    XCTAssertEqual(written.size, slot.rect.size)
                    XCTAssertTrue(HomeScreenshot.isFilled(written, with: HomeScreenshot.colour(index)), "\(size) \(icons) \(slot.name)")
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, 7 + 11 + 11)
    }

    /// `--all -o DIR` on a screenshot with every slot painted (large under medium under small):
    /// a file per slot, FAMILY-POSITION.png, holding exactly the screenshot's pixels there.
    func testAllWritesEverySlotWithTheScreenshotsPixels() throws {
        for (size, icons) in layouts {
            let layout = try HomeScreenLayout.resolve(screenshot: size, icons: icons)
            let slots = Array(layout.slots.reversed())
            let bitmap = try HomeScreenshot.bitmap(size: size, painted: slots.enumerated().map { ($1.rect, HomeScreenshot.colour($0)) })
            let folder = try CLIRunner.temporaryFolder()
            try HomeScreenshot.png(bitmap).write(to: folder.appendingPathComponent("home.png"))
            let result = try CLIRunner.run(["slice", "home.png", "--all", "--icons", icons.rawValue, "-o", "slices"], in: folder)
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertEqual(result.output.split(separator: "\n").map { String($0.prefix { $0 != ":" }) },
                           layout.slots.map { folder.appendingPathComponent("slices/\($0.name).png").path })
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("slices").path)
            XCTAssertEqual(Set(files), Set(layout.slots.map { "\($0.name).png" }))
            for slot in layout.slots {
                let written = try decoded(folder.appendingPathComponent("slices/\(slot.name).png"))
                XCTAssertEqual(written.size, slot.rect.size, "\(size) \(icons) \(slot.name)")
                XCTAssertEqual(written, try HomeScreenshot.crop(bitmap, slot.rect), "\(size) \(icons) \(slot.name)")
            }
        }
    }

    func testJSONDescribesTheSliceAndAJPEGOutputIsAJPEG() throws {
        let folder = try CLIRunner.temporaryFolder()
        let screenshot = folder.appendingPathComponent("home.png")
        try writeScreenshot(PixelSize(width: 750, height: 1334), painting: [], to: screenshot)
        let result = try CLIRunner.run(
            ["slice", screenshot.path, "--widget", "large", "--position", "bottom", "-o", "large.jpg", "--json"], in: folder)
        XCTAssertEqual(result.status, 0, result.errors)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        XCTAssertEqual(object["name"] as? String, "large-bottom")
        XCTAssertEqual(object["pixels"] as? [String: Int], ["x": 54, "y": 412, "width": 642, "height": 648])
        XCTAssertEqual(object["points"] as? [String: Double], ["x": 27, "y": 206, "width": 321, "height": 324])
        XCTAssertEqual(object["format"] as? String, "jpeg")
        XCTAssertEqual(object["path"] as? String, "large.jpg")
        XCTAssertEqual(object["estimated"] as? Bool, false)
        XCTAssertTrue(object["expected_error_px"] is NSNull)
        XCTAssertEqual(object["bytes"] as? Int, try Data(contentsOf: folder.appendingPathComponent("large.jpg")).count)
        let written = try ImageDecoder.inspect(.file(path: folder.appendingPathComponent("large.jpg").path))
        XCTAssertEqual(written.format, .jpeg)
        XCTAssertEqual(written.size, PixelSize(width: 642, height: 648))
    }

    func testBadInputIsOneLineAndExitTwoAndADamagedScreenshotExitFour() throws {
        let folder = try CLIRunner.temporaryFolder()
        let (se, cut) = try CLIRunner.seScreenshots(in: folder)
        let four = try HomeScreenshot.write(size: PixelSize(width: 640, height: 1136), to: folder.appendingPathComponent("four.png"))
        let text = folder.appendingPathComponent("notes.png")
        try Data("hello".utf8).write(to: text)
        let medium = ["--widget", "medium", "--position", "top"]
        let cases: [(arguments: [String], status: Int32, message: String)] = try CLIRunner.screenshotFailures(in: folder, options: medium) + [
            ([se, "--widget", "small", "--position", "centre"], 2, "--position expects one of top-left"),
            ([se, "--widget", "small", "--position", "top"], 2, "this layout has no small widget at top"),
            ([four, "--widget", "large", "--position", "bottom"], 2, "this layout has no large widget at bottom (it has top)"),
            ([se, "--widget", "extra-large", "--position", "top"], 2, "a home screen has no extra-large widget slots"),
            ([se, "--widget", "medium"], 2, "give --widget with --position, or --all"),
            ([se, "--all", "--widget", "small"], 2, "give no --widget or --position"),
            ([se, "-o", "slice.gif"] + medium, 2, "a slice is PNG or JPEG"),
            ([cut] + medium, 4, "corrupt PNG image"),
            ([text.path] + medium, 3, "unsupported format"),
        ]
        try CLIRunner.assertFailures("slice", cases, in: folder)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("medium-top.png").path))
    }
}
