import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImgCache

/// One decode for several targets gives each target exactly what a decode of its own gives.
final class MultiTargetDecodingTests: XCTestCase {
    private let targets = [
        DecodingOptions(targetSize: PixelSize(width: 600, height: 400)),
        DecodingOptions(targetSize: PixelSize(width: 150, height: 150), contentMode: .crop),
        DecodingOptions(targetSize: PixelSize(width: 97, height: 41), contentMode: .fill),
        DecodingOptions(targetSize: PixelSize(width: 1200, height: 1200)),
    ]

    /// Every target decoded together (within `budget`) and alone: the same frames.
    private func assertSameAsSingleDecodes(
        _ source: ImageSource, _ targets: [DecodingOptions], budget: Int = ImageDecoder.defaultPassBudgetBytes,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let delivered = Mutex([Int: DecodedImage]())
        try ImageDecoder.decode(source, targets: targets, passBudgetBytes: budget) { index, image in
            delivered.withLock { delivered in
                XCTAssertNil(delivered[index], "target \(index) delivered twice", file: file, line: line)
                delivered[index] = image
            }
        }
        let together = delivered.withLock { $0 }
        XCTAssertEqual(together.count, targets.count, file: file, line: line)
        for (index, options) in targets.enumerated() {
            let alone = try ImageDecoder.decode(source, options: options)
            XCTAssertEqual(together[index]?.frames, alone.frames, "target \(index)", file: file, line: line)
            XCTAssertEqual(together[index]?.info, alone.info, "target \(index)", file: file, line: line)
        }
    }

    func testPNGTargetsMatchSingleDecodesInOnePassAndInSeveral() throws {
        let png = try PNGEncoder.encode(TestImages.scene(width: 1200, height: 900, translucent: true))
        try assertSameAsSingleDecodes(.data(png), targets)
        try assertSameAsSingleDecodes(.data(png), targets, budget: 1)
    }

    func testJPEGTargetsDecodeOncePerDCTScaleAndMatchSingleDecodes() throws {
        let jpeg = try JPEGEncoder.encode(TestImages.scene(width: 1200, height: 900), quality: 90)
        let path = try TestImages.pngFile(TestImages.scene(width: 2, height: 2), name: "unused.png")
        let file = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("photo.jpg")
        try jpeg.write(to: file)
        try assertSameAsSingleDecodes(.data(jpeg), targets)
        try assertSameAsSingleDecodes(.file(path: file.path), targets)
        // Four targets, three scales: 600x400 fit and 1200x1200 (no upscaling) need 1/1, the
        // 150x150 crop (of 900x900) 1/2, the 97x41 fill (97x73) 1/4.
        let reports = try ImageSource.data(jpeg).withInput { input in
            try JPEGDecoder.decode(input, targets: targets) { _, _, _ in }
        }
        XCTAssertEqual(reports.map(\.scaleDenominator), [1, 2, 4])
    }

    func testGIFTargetsKeepTheirOwnFrameCountsAndMatchSingleDecodes() throws {
        let encoder = try GIFEncoder(size: PixelSize(width: 120, height: 90), loopCount: 0)
        for index in 0..<12 {
            try encoder.add(ImageFrame(bitmap: TestImages.scene(width: 120, height: 90, seed: UInt64(index)), delayCentiseconds: 7))
        }
        let gif = try encoder.finish()
        let frameTargets = [
            DecodingOptions(targetSize: PixelSize(width: 60, height: 60), maxFrames: 3),
            DecodingOptions(targetSize: PixelSize(width: 100, height: 40), contentMode: .crop, maxFrames: 9),
            DecodingOptions(targetSize: PixelSize(width: 30, height: 30), maxFrames: 50, frameBudgetBytes: 5 * 30 * 23 * 4),
        ]
        try assertSameAsSingleDecodes(.data(gif), frameTargets)
        let counts = Mutex([Int: Int]())
        try ImageDecoder.decode(.data(gif), targets: frameTargets) { index, image in
            counts.withLock { $0[index] = image.frames.count }
        }
        XCTAssertEqual(counts.withLock { $0 }, [0: 3, 1: 9, 2: 5])
    }

    func testTargetsWithDifferentLimitsAreRefused() {
        var strict = targets[0]
        strict.limits = DecodingLimits(maxPixelsPerFrame: 10)
        XCTAssertThrowsError(try ImageDecoder.decode(.data(Data([0xFF, 0xD8, 0xFF])), targets: [targets[1], strict]) { _, _ in }) {
            guard case .invalidArgument? = $0 as? ImgCacheError else { return XCTFail("\($0)") }
        }
    }
}
