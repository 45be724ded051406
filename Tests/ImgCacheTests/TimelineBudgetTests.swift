import Foundation
import XCTest
@testable import ImgCache

/// `DecodingOptions.timeline`: the per-entry budget, the frames kept, refusals and `fitsImage`.
final class TimelineBudgetTests: XCTestCase {
    /// A 200x200 GIF of 300 frames: frame 0 blank (transparent but for a black corner), then a
    /// 50x50 white square moving across a cleared canvas.
    private static let blankFirst300: Data = {
        var gif = GIFFile(width: 200, height: 200)
        gif.control(disposal: 2, delay: 4)
        gif.frame(width: 8, height: 8, pixels: [UInt8](repeating: 0, count: 64))
        for index in 1..<300 {
            gif.control(disposal: 2, delay: 4)
            gif.frame(x: index * 3 % 150, y: 75, width: 50, height: 50, pixels: [UInt8](repeating: 1, count: 2500))
        }
        gif.trailer()
        return gif.data
    }()

    /// A 1100x1100 canvas (an 8x8 frame in its corner), for targets over an entry's budget.
    private static let large: Data = {
        var gif = GIFFile(width: 1100, height: 1100)
        gif.frame(width: 8, height: 8, pixels: [UInt8](repeating: 1, count: 64))
        gif.trailer()
        return gif.data
    }()

    func testEntryBudgetIsTheLimitLessTheReserveOverTheEntries() {
        XCTAssertEqual(TimelineBudget(entries: 8).bytesPerEntry, 2_621_440) // (30 - 10) MiB / 8
        XCTAssertEqual(TimelineBudget(memory: .today, entries: 3).bytesPerEntry, 2_097_152) // (16 - 10) MiB / 3
        XCTAssertEqual(ExtensionMemory.widgetKit.limitBytes, 31_457_280)
        XCTAssertEqual(ExtensionMemory.today.imageBytes, 6_291_456)
        XCTAssertThrowsError(try DecodingOptions(timeline: TimelineBudget(entries: 0)).validate())
        XCTAssertThrowsError(try DecodingOptions(timeline: TimelineBudget(entries: 1001)).validate())
    }

    /// The check: 8 entries of a 300-frame GIF stay under 30 MB by the budget and by the
    /// decoded frames' own bytes; its poster is not the blank frame 0.
    func testEightEntriesOfA300FrameGIFStayUnder30MB() throws {
        let timeline = TimelineBudget(entries: 8)
        let image = try ImageDecoder.decode(.data(Self.blankFirst300), options: DecodingOptions(maxFrames: 300, timeline: timeline))
        XCTAssertEqual(image.size, PixelSize(width: 200, height: 200))
        XCTAssertEqual(image.frames.count, 16) // 2,621,440 / 160,000
        let actual = image.frames.reduce(0) { $0 + $1.bitmap.width * $1.bitmap.height * 4 }
        XCTAssertEqual(actual, 2_560_000)
        XCTAssertEqual(image.byteCount, actual)
        XCTAssertLessThanOrEqual(actual, timeline.bytesPerEntry)
        XCTAssertLessThanOrEqual(actual * 8 + ExtensionMemory.widgetKit.reserveBytes, 30 << 20)

        let poster = try ImageDecoder.decode(
            .data(Self.blankFirst300), options: DecodingOptions(maxFrames: 300, picksPoster: true, timeline: timeline))
        XCTAssertEqual(poster.info.poster?.index, 1)
        XCTAssertEqual(poster.info.poster?.framesDecoded, 5)
        XCTAssertEqual(poster.frames.count, 1)
        // The square of frame 1 at x 3...52, y 75...124: white there, transparent beside it.
        let pixels = poster.frames[0].bitmap.pixels
        XCTAssertEqual(Array(pixels[(100 * 200 + 10) * 4..<(100 * 200 + 10) * 4 + 4]), [255, 255, 255, 255])
        XCTAssertEqual(Array(pixels[(100 * 200 + 60) * 4..<(100 * 200 + 60) * 4 + 4]), [0, 0, 0, 0])
    }

    func testAFrameOverTheEntryBudgetIsRefusedUnlessFitted() throws {
        let crop = DecodingOptions(targetSize: PixelSize(width: 1032, height: 1098), contentMode: .crop, timeline: TimelineBudget(entries: 8))
        XCTAssertThrowsError(try ImageDecoder.decode(.data(Self.large), options: crop)) { error in
            XCTAssertEqual(error as? ImgCacheError, .overTimelineBudget(width: 1032, height: 1098, bytesPerEntry: 2_621_440, entries: 8))
        }
        var fitted = crop
        fitted.timeline?.fitsImage = true
        // The widest of 1032:1098 within 655,360 pixels: 784x834 (785x835 is 655,475).
        XCTAssertEqual(try ImageDecoder.decode(.data(Self.large), options: fitted).size, PixelSize(width: 784, height: 834))
        for (mode, target, expected) in [(ContentMode.fit, PixelSize(width: 1032, height: 1098), 809), (.fill, PixelSize(width: 1032, height: 500), 809)] {
            let options = DecodingOptions(targetSize: target, contentMode: mode, timeline: TimelineBudget(entries: 8, fitsImage: true))
            // 809 x 809 = 654,481 pixels; 810 x 810 is over.
            XCTAssertEqual(try ImageDecoder.decode(.data(Self.large), options: options).size, PixelSize(width: expected, height: expected), "\(mode)")
        }
        XCTAssertEqual(TimelineBudget(entries: 8).fitted(PixelSize(width: 1032, height: 1098)), PixelSize(width: 784, height: 834))
        XCTAssertEqual(TimelineBudget(entries: 8).fitted(PixelSize(width: 100, height: 100)), PixelSize(width: 100, height: 100))
    }

    func testTheTimelineIsPartOfTheVariantKey() {
        let plain = VariantKey.make(url: "u", pixels: nil, options: DecodingOptions(), format: .automatic)
        let timeline = VariantKey.make(
            url: "u", pixels: nil, options: DecodingOptions(timeline: TimelineBudget(memory: .today, entries: 4, fitsImage: true)), format: .automatic)
        XCTAssertEqual(timeline, plain + ";timeline=today:4:fit")
    }
}
