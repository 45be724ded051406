import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImgCache

/// The smart crop (`CropGravity.smart`, `AttentionCrop`): the window lands on the detail, skin and
/// colour of a frame, exactly where the measure puts it for inputs built to be unambiguous; a
/// request decodes the fill size, cuts it, then runs its processors; an animation gets one window;
/// and the window stays near vips's attention crop when vipsthumbnail is installed.
final class AttentionCropTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-attention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: - Fixtures

    /// An opaque bitmap of one colour.
    private func flat(_ width: Int, _ height: Int, _ rgb: (UInt8, UInt8, UInt8) = (128, 128, 128)) -> Bitmap {
        var bitmap = Bitmap(size: PixelSize(width: width, height: height))
        for offset in stride(from: 0, to: bitmap.pixels.count, by: 4) {
            bitmap.pixels.replaceSubrange(offset..<offset + 4, with: [rgb.0, rgb.1, rgb.2, 255])
        }
        return bitmap
    }

    /// `bitmap` with `rect` painted by `colour(x, y)` (coordinates inside the rectangle).
    private func painted(_ bitmap: Bitmap, _ rect: PixelRect, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Bitmap {
        var bitmap = bitmap
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let (r, g, b) = colour(x - rect.x, y - rect.y)
                bitmap.pixels.replaceSubrange((y * bitmap.width + x) * 4..<(y * bitmap.width + x) * 4 + 4, with: [r, g, b, 255])
            }
        }
        return bitmap
    }

    /// A black and white checkerboard of 4-pixel squares: all edges, no colour.
    private func checkerboard(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        (x / 4 + y / 4) % 2 == 0 ? (0, 0, 0) : (255, 255, 255)
    }

    private func window(_ target: (Int, Int), in bitmaps: [Bitmap]) -> PixelRect {
        AttentionCrop(target: PixelSize(width: target.0, height: target.1)).window(in: bitmaps)
    }

    // MARK: - The window

    /// A detailed subject on a flat background, flush against each edge: the window moves to
    /// that edge, and stops there.
    func testFramesOfSeveralSizesAreRefusedNotCut() {
        let image = DecodedImage(
            info: ImageInfo(format: .gif, sourceSize: PixelSize(width: 40, height: 20)),
            frames: [ImageFrame(bitmap: flat(40, 20)), ImageFrame(bitmap: flat(10, 10))])
        XCTAssertThrowsError(try AttentionCrop(target: PixelSize(width: 20, height: 20)).process(image, context: ImageProcessingContext())) {
            XCTAssertEqual($0 as? ImgCacheError, .invalidArgument("a smart crop cuts frames of one size; these are of several"))
        }
    }

    func testADetailedSubjectIsFoundAtEachEdge() {
        let wide = flat(400, 200), tall = flat(200, 400)
        let cases: [(Bitmap, PixelRect, PixelRect)] = [
            (wide, PixelRect(x: 0, y: 70, width: 60, height: 60), PixelRect(x: 0, y: 0, width: 200, height: 200)),
            (wide, PixelRect(x: 340, y: 70, width: 60, height: 60), PixelRect(x: 200, y: 0, width: 200, height: 200)),
            (tall, PixelRect(x: 70, y: 0, width: 60, height: 60), PixelRect(x: 0, y: 0, width: 200, height: 200)),
            (tall, PixelRect(x: 70, y: 340, width: 60, height: 60), PixelRect(x: 0, y: 200, width: 200, height: 200)),
        ]
        for (background, subject, expected) in cases {
            XCTAssertEqual(window((200, 200), in: [painted(background, subject, checkerboard)]), expected, "subject \(subject)")
        }
    }

    /// Away from the edges the window is centred on the cell of most interest, mapped back to
    /// pixels as vips maps it (the cell's top left corner): a 40x40 subject at x 250...290 of 640
    /// lies in cells 12...14 (20 pixels each); the blurred peak is cell 13, x 260, so the window
    /// starts at 260 - 100. The same input gives vips smartcrop's window (attention-x 260).
    func testTheWindowIsCentredOnThePeakCell() {
        let image = painted(flat(640, 200), PixelRect(x: 250, y: 80, width: 40, height: 40), checkerboard)
        XCTAssertEqual(window((200, 200), in: [image]), PixelRect(x: 160, y: 0, width: 200, height: 200))
        let tall = painted(flat(200, 640), PixelRect(x: 80, y: 250, width: 40, height: 40), checkerboard)
        XCTAssertEqual(window((200, 100), in: [tall]), PixelRect(x: 0, y: 210, width: 200, height: 100))
    }

    /// A flat image has no peak: the window stays in the centre (vips would take its first cell).
    func testAFlatImageKeepsTheCentre() {
        XCTAssertEqual(window((200, 200), in: [flat(400, 200)]), PixelRect(x: 100, y: 0, width: 200, height: 200))
        XCTAssertEqual(window((100, 50), in: [flat(100, 300, (10, 200, 30))]), PixelRect(x: 0, y: 125, width: 100, height: 50))
    }

    /// Two flat patches of one luminance on a dark ground, with the same edges: the skin-toned one
    /// wins over the grey one, on either side.
    func testASkinTonedPatchIsPreferred() {
        let skin: (UInt8, UInt8, UInt8) = (224, 172, 140)
        // Rec. 709 luminance of the skin tone, as a grey of the same light.
        let grey: (UInt8, UInt8, UInt8) = (181, 181, 181)
        let ground = flat(600, 200, (20, 20, 20))
        let skinLeft = painted(painted(ground, PixelRect(x: 60, y: 60, width: 80, height: 80)) { _, _ in skin },
                               PixelRect(x: 460, y: 60, width: 80, height: 80)) { _, _ in grey }
        let skinRight = painted(painted(ground, PixelRect(x: 60, y: 60, width: 80, height: 80)) { _, _ in grey },
                                PixelRect(x: 460, y: 60, width: 80, height: 80)) { _, _ in skin }
        let left = window((200, 200), in: [skinLeft]), right = window((200, 200), in: [skinRight])
        XCTAssertTrue(left.x <= 60 && left.maxX >= 140, "\(left) misses the skin patch at x 60...140")
        XCTAssertTrue(right.x <= 460 && right.maxX >= 540, "\(right) misses the skin patch at x 460...540")
    }

    /// Transparent pixels count as black (vips premultiplies before it measures): a detailed
    /// subject painted at alpha 0 is not seen, so a flat opaque image with it keeps the centre.
    func testTransparentDetailIsNotSeen() {
        var image = painted(flat(400, 200), PixelRect(x: 0, y: 70, width: 60, height: 60), checkerboard)
        for y in 0..<200 {
            for x in 0..<400 { image.pixels[(y * 400 + x) * 4 + 3] = 0 }
        }
        XCTAssertEqual(window((200, 200), in: [image]), PixelRect(x: 100, y: 0, width: 200, height: 200))
    }

    /// A frame no larger than the target is not cut; one smaller on a side is cut to its largest
    /// region of the target's aspect ratio (as an unscaled crop), still placed by interest.
    func testFramesAtOrBelowTheTargetSize() throws {
        let crop = AttentionCrop(target: PixelSize(width: 100, height: 100))
        let exact = DecodedImage(info: ImageInfo(format: .png, sourceSize: PixelSize(width: 100, height: 100)), frames: [ImageFrame(bitmap: flat(100, 100))])
        XCTAssertEqual(try crop.process(exact, context: ImageProcessingContext()), exact)
        let small = painted(flat(160, 80), PixelRect(x: 130, y: 20, width: 30, height: 40), checkerboard)
        let image = DecodedImage(info: ImageInfo(format: .png, sourceSize: small.size), frames: [ImageFrame(bitmap: small)])
        let cut = try crop.process(image, context: ImageProcessingContext())
        XCTAssertEqual(cut.size, PixelSize(width: 80, height: 80))
        XCTAssertEqual(crop.window(in: [small]), PixelRect(x: 80, y: 0, width: 80, height: 80))
        XCTAssertEqual(Array(cut.frames[0].bitmap.pixels.prefix(80 * 4)), Array(small.pixels[80 * 4..<160 * 4]))
        XCTAssertEqual(crop.identifier, "attention-crop(100x100)")
    }

    // MARK: - Through the pipeline

    private func pipeline(_ loader: CountingLoader) throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: root.appendingPathComponent("cache"))
        disk.syncWrites = false
        return try ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, diskCache: disk))
    }

    /// Records the size of every image it is given.
    private final class SizeProbe: ImageProcessing {
        let sizes = Mutex([PixelSize]())
        var identifier: String { "test-size-probe" }
        func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
            sizes.withLock { $0.append(image.size) }
            return image
        }
    }

    /// A smart crop decodes the fill size (400x200 from 800x400 for 200x200), cuts the subject's
    /// window out of it before the request's processors see it, and is a variant of its own,
    /// `;gravity=smart`, before the processors in the key.
    func testARequestCutsTheFillBeforeItsProcessorsAndKeysTheGravity() async throws {
        let source = painted(flat(800, 400), PixelRect(x: 680, y: 140, width: 120, height: 120), checkerboard)
        let url = URL(string: "https://example.test/subject.png")!
        let loader = CountingLoader()
        loader.serve(url, .init(data: try PNGEncoder.encode(source)))
        let pipeline = try pipeline(loader)
        let target = ImageTarget.pixels(PixelSize(width: 200, height: 200))
        let probe = SizeProbe()
        let smart = try await pipeline.image(for: ImageRequest(url: url, target: target, contentMode: .crop, gravity: .smart, processors: [probe]))
        let fill = try await pipeline.image(for: ImageRequest(url: url, target: target, contentMode: .fill))
        XCTAssertEqual(fill.pixelSize, PixelSize(width: 400, height: 200))
        XCTAssertEqual(smart.pixelSize, PixelSize(width: 200, height: 200))
        XCTAssertEqual(probe.sizes.withLock { $0 }, [PixelSize(width: 200, height: 200)])
        // The subject is flush right: the window is the right half of the fill, pixel for pixel.
        let fillPixels = fill.image.frames[0].bitmap.pixels, smartPixels = smart.image.frames[0].bitmap.pixels
        for row in 0..<200 {
            XCTAssertEqual(smartPixels[row * 800..<(row + 1) * 800], fillPixels[(row * 400 + 200) * 4..<(row * 400 + 400) * 4], "row \(row)")
        }
        let centre = try await pipeline.prepare(ImageRequest(url: url, target: target, contentMode: .crop))
        let plain = try await pipeline.prepare(ImageRequest(url: url, target: target, contentMode: .crop, gravity: .smart))
        XCTAssertEqual(plain.variantKey, centre.variantKey + ";gravity=smart")
        XCTAssertEqual(smart.variantKey, centre.variantKey + ";gravity=smart;process=test-size-probe")
        XCTAssertEqual(loader.loads, 1)
    }

    /// `ImageDecoder.decode(_:options:)` cuts a smart crop as the pipeline does, and a source
    /// region is measured as if it were the whole source.
    func testTheDecoderCutsASmartCropAndHonoursARegion() throws {
        let source = painted(flat(800, 400), PixelRect(x: 0, y: 140, width: 120, height: 120), checkerboard)
        let file = root.appendingPathComponent("left.png")
        try PNGEncoder.encode(source).write(to: file)
        let options = DecodingOptions(targetSize: PixelSize(width: 200, height: 200), contentMode: .crop, gravity: .smart)
        let decoded = try ImageDecoder.decode(.file(path: file.path), options: options)
        let fill = try ImageDecoder.decode(.file(path: file.path), options: DecodingOptions(targetSize: PixelSize(width: 200, height: 200), contentMode: .fill))
        XCTAssertEqual(decoded.size, PixelSize(width: 200, height: 200))
        XCTAssertEqual(decoded.frames[0].bitmap.pixels[0..<800], fill.frames[0].bitmap.pixels[0..<800], "the left of the fill")
        var region = options
        region.sourceRegion = PixelRect(x: 400, y: 0, width: 400, height: 400)
        region.targetSize = PixelSize(width: 100, height: 200)
        // The region holds no detail: its window is its centre, x 100...300 of 400.
        let inRegion = try ImageDecoder.decode(.file(path: file.path), options: region)
        XCTAssertEqual(inRegion.size, PixelSize(width: 100, height: 200))
    }

    /// An animation gets one window for every frame it keeps, from the sum of their scores, and
    /// keeps as many frames as the budget allows at the cropped size: a subject at the left of
    /// frame 0 and at the right of frames 1 and 2 puts the window at the right when three frames
    /// are kept, and at the left when the budget keeps only frame 0.
    func testAnAnimationGetsOneWindowFromTheFramesItKeeps() async throws {
        let left = painted(flat(300, 100), PixelRect(x: 0, y: 20, width: 60, height: 60), checkerboard)
        let right = painted(flat(300, 100), PixelRect(x: 240, y: 20, width: 60, height: 60), checkerboard)
        let animation = DecodedImage(
            info: ImageInfo(format: .gif, sourceSize: PixelSize(width: 300, height: 100), loopCount: 0),
            frames: [left, right, right].map { ImageFrame(bitmap: $0, delayCentiseconds: 10) })
        let url = URL(string: "https://example.test/moving.gif")!
        let loader = CountingLoader()
        loader.serve(url, .init(data: try GIFEncoder.encode(animation)))
        let pipeline = try pipeline(loader)
        let target = ImageTarget.pixels(PixelSize(width: 100, height: 100))
        // 100x100 frames take 40,000 bytes: 120,000 keeps three (at the uncut 300x100, one).
        for (budget, frames, x) in [(120_000, 3, 200), (40_000, 1, 0)] {
            let response = try await pipeline.image(for: ImageRequest(
                url: url, target: target, contentMode: .crop, gravity: .smart, frameBudgetBytes: budget))
            XCTAssertEqual(response.image.frames.count, frames, "budget \(budget)")
            for (index, frame) in response.image.frames.enumerated() {
                let source = animation.frames[index].bitmap
                XCTAssertEqual(frame.bitmap.size, PixelSize(width: 100, height: 100))
                for row in [0, 40, 99] {
                    let start = (row * 300 + x) * 4
                    XCTAssertEqual(frame.bitmap.pixels[row * 400..<(row + 1) * 400], source.pixels[start..<start + 400],
                                   "budget \(budget), frame \(index), row \(row): not the window at x \(x)")
                }
            }
        }
    }

    // MARK: - Against vips

    /// A photo-like test image: a smooth sky-to-ground gradient with soft blobs, and a sharp
    /// subject (a skin-toned face with eyes and hair over a striped, saturated body) centred at
    /// `subject` (fractions of the size).
    private func photo(_ size: PixelSize, subject: (x: Double, y: Double), seed: UInt64) -> Bitmap {
        var random = SeededGenerator(seed: seed)
        var bitmap = Bitmap(size: size)
        let (w, h) = (size.width, size.height)
        let blobs = (0..<12).map { _ in
            (x: Double.random(in: 0...Double(w), using: &random), y: Double.random(in: 0...Double(h), using: &random),
             r: Double.random(in: 0.05...0.2, using: &random) * Double(min(w, h)), tone: Double.random(in: -30...30, using: &random))
        }
        let radius = Double(min(w, h)) * 0.09
        let (cx, cy) = (subject.x * Double(w), subject.y * Double(h))
        for y in 0..<h {
            for x in 0..<w {
                let t = Double(y) / Double(h)
                var rgb = (90 + 60 * t, 140 - 30 * t, 200 - 120 * t)
                for blob in blobs where hypot(Double(x) - blob.x, Double(y) - blob.y) < blob.r {
                    let k = 1 - hypot(Double(x) - blob.x, Double(y) - blob.y) / blob.r
                    rgb = (rgb.0 + blob.tone * k, rgb.1 + blob.tone * k, rgb.2 + blob.tone * k * 0.5)
                }
                let (dx, dy) = ((Double(x) - cx) / radius, (Double(y) - cy) / radius)
                if dx * dx + dy * dy < 1 {
                    rgb = dy < -0.55 ? (40, 30, 25) : (224, 172, 140)  // hair, then skin
                    if abs(abs(dx) - 0.38) < 0.12 && abs(dy) < 0.08 { rgb = (40, 30, 30) }  // eyes
                } else if dy > 1.2 && abs(dx) < 2.2 {
                    rgb = Int(dy * 6) % 2 == 0 ? (200, 40, 50) : (110, 20, 30)  // striped clothes
                }
                let noise = Double(Int(random.next() % 9) - 4)
                let offset = (y * w + x) * 4
                bitmap.pixels[offset] = UInt8(clamping: Int(rgb.0 + noise))
                bitmap.pixels[offset + 1] = UInt8(clamping: Int(rgb.1 + noise))
                bitmap.pixels[offset + 2] = UInt8(clamping: Int(rgb.2 + noise))
                bitmap.pixels[offset + 3] = 255
            }
        }
        return bitmap
    }

    /// Where `crop` (W x H) lies in `image`, found by exact comparison (the crop's pixels are the
    /// image's, unresampled); nil when nowhere.
    private func offset(of crop: Bitmap, in image: Bitmap) -> (x: Int, y: Int)? {
        let row = crop.width * 4
        for y in 0...(image.height - crop.height) {
            for x in 0...(image.width - crop.width) {
                let matches = (0..<crop.height).allSatisfy { line in
                    let start = ((y + line) * image.width + x) * 4
                    return image.pixels[start..<start + row].elementsEqual(crop.pixels[line * row..<(line + 1) * row])
                }
                if matches { return (x, y) }
            }
        }
        return nil
    }

    /// vipsthumbnail's attention crop of two generated photos (already at the fill size, so
    /// neither tool resamples and vips's window is found exactly in the source) and imgcache's
    /// are within 5% of the source's side of each other, and both hold the subject's centre.
    func testTheWindowIsNearVipsthumbnailsAttentionCrop() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vipsthumbnail") else {
            throw XCTSkip("/usr/bin/vipsthumbnail is missing (apt-get install libvips-tools): not compared with vips")
        }
        let cases: [(PixelSize, (x: Double, y: Double), PixelSize)] = [
            (PixelSize(width: 900, height: 430), (0.2, 0.4), PixelSize(width: 430, height: 430)),
            (PixelSize(width: 480, height: 1000), (0.6, 0.75), PixelSize(width: 480, height: 460)),
        ]
        for (index, (size, subject, target)) in cases.enumerated() {
            let source = photo(size, subject: subject, seed: UInt64(index + 1))
            let input = root.appendingPathComponent("photo-\(index).png"), output = root.appendingPathComponent("vips-\(index).png")
            try PNGEncoder.encode(source).write(to: input)
            let vips = try ProductRunner.runTool(
                "vipsthumbnail", [input.path, "--size", "\(target.width)x\(target.height)", "--smartcrop", "attention", "-o", output.path])
            XCTAssertEqual(vips.status, 0, vips.errors)
            let vipsCrop = try ImageDecoder.decode(.file(path: output.path)).frames[0].bitmap
            XCTAssertEqual(vipsCrop.size, target)
            guard let vipsWindow = offset(of: vipsCrop, in: source) else { return XCTFail("photo \(index): vips's crop is not a window of the source") }
            let ours = AttentionCrop(target: target).window(in: [source])
            let distance = Double(max(abs(ours.x - vipsWindow.x), abs(ours.y - vipsWindow.y))) / Double(max(size.width, size.height))
            XCTAssertLessThanOrEqual(distance, 0.05, "photo \(index): imgcache \(ours), vips \(vipsWindow)")
            let centre = (x: Int(subject.x * Double(size.width)), y: Int(subject.y * Double(size.height)))
            for (name, x, y) in [("imgcache", ours.x, ours.y), ("vips", vipsWindow.x, vipsWindow.y)] {
                XCTAssertTrue((x..<x + target.width).contains(centre.x) && (y..<y + target.height).contains(centre.y),
                              "photo \(index): \(name)'s window at \(x),\(y) misses the subject at \(centre)")
            }
        }
    }
}
