import Foundation
import ImgCache
import TestSupport
import XCTest

/// The Swift code of the DocC articles (Sources/ImgCache/ImgCache.docc/*.md), the README and
/// docs/*.md: every ```swift block (its `import` lines aside; the service example is built by
/// `ServiceExampleTests`) is one of the regions of this file between `// snippet NAME` and `// end snippet`
/// (indentation aside), and each region is compiled here and run against nginx, with what its
/// comments say checked after it.
final class DocumentationArticleTests: XCTestCase {
    private static let repository = DocumentationPages.repository

    private var nginx: NginxServer!
    private var folder: URL!
    /// The cache folder the snippets configure.
    private var cacheFolder: URL { folder.appendingPathComponent("cache", isDirectory: true) }

    override func setUpWithError() throws {
        nginx = try NginxServer()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-articles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try TestImage.jpeg(width: 1600, height: 1000).write(to: nginx.root.appendingPathComponent("photo.jpg"))
    }

    override func tearDownWithError() throws {
        nginx.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: The articles show these regions as they are

    /// The Swift blocks of the articles, the README and docs/, each without the `import` lines it
    /// starts with (a region sits in a function), but for the service example, which
    /// `ServiceExampleTests` builds as a program of its own.
    private static func swiftBlocks() throws -> [(page: String, code: String)] {
        let serviceExample = try String(
            contentsOf: repository.appendingPathComponent("Samples/ServiceExample/main.swift"), encoding: .utf8)
        let pages = try DocumentationPages.articles() + DocumentationPages.readerPages()
        return try DocumentationPages.codeBlocks(in: pages).filter { $0.language == "swift" && $0.code + "\n" != serviceExample }
            .map { block in
                var lines = block.lines[...]
                while lines.first?.hasPrefix("import ") == true { lines = lines.dropFirst() }
                if lines.first == "" { lines = lines.dropFirst() }
                return (block.page, lines.joined(separator: "\n"))
            }
    }

    /// This file's regions by name, each without the indentation its lines share.
    private static func regions() throws -> [String: String] {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        var regions: [String: String] = [:]
        var current: (name: String, lines: [Substring])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("// snippet ") {
                current = (String(trimmed.dropFirst("// snippet ".count)), [])
            } else if trimmed == "// end snippet", let region = current {
                let indent = region.lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                regions[region.name] = region.lines.map { $0.dropFirst(min(indent, $0.count)) }.joined(separator: "\n")
                current = nil
            } else {
                current?.lines.append(line)
            }
        }
        return regions
    }

    func testEverySwiftBlockOfTheDocumentationIsARegionRunHereAndEveryRegionIsShown() throws {
        let blocks = try Self.swiftBlocks()
        let regions = try Self.regions()
        XCTAssertGreaterThanOrEqual(blocks.count, 25)
        for (page, code) in blocks {
            XCTAssertTrue(regions.values.contains(code), "\(page) shows code that no region of this file holds:\n\(code)")
        }
        for (name, code) in regions.sorted(by: { $0.key < $1.key }) {
            XCTAssertTrue(blocks.contains { $0.code == code }, "region \(name) is on no page")
        }
    }

    // MARK: Getting started

    func testGettingStarted() async throws {
        let url = nginx.url("/photo.jpg")
        // snippet first-image
        // Default folder: $IMGCACHE_DIR, else ~/.cache/imgcache.
        var configuration = ImagePipeline.Configuration()
        configuration.diskCache.root = cacheFolder
        let pipeline = try ImagePipeline(configuration: configuration)

        let device = try DeviceCatalog.device(named: "iPhone 16 Pro")
        let request = ImageRequest(
            url: url, target: .widget(.medium, device: device), contentMode: .crop)
        let response = try await pipeline.image(for: request)
        // response.pixelSize: 1032x486, response.pointSize: 344x162,
        // response.cacheOutcome: .network
        // end snippet
        XCTAssertEqual(response.pixelSize, PixelSize(width: 1032, height: 486))
        XCTAssertEqual(response.pointSize, PointSize(width: 344, height: 162))
        XCTAssertEqual(response.cacheOutcome, .network)

        // snippet prepare
        // No pixels: a variant already stored is not decoded.
        let summary = try await pipeline.prepare(request)
        // summary.format: .jpeg, summary.cacheOutcome: .memory
        let jpeg = try summary.encodedData()
        // end snippet
        XCTAssertEqual(summary.format, .jpeg)
        XCTAssertEqual(summary.cacheOutcome, .memory)
        XCTAssertEqual(try ImageDecoder.inspect(.data(jpeg)).size, PixelSize(width: 1032, height: 486))

        let missingURL = nginx.url("/missing.jpg")
        // snippet errors
        let outcome: String
        do {
            let response = try await pipeline.image(for: ImageRequest(url: missingURL))
            outcome = "prepared at \(response.pixelSize)"
        } catch ImgCacheError.httpStatus(let code, _) {
            // A 404 fails at once; 5xx and 429 are retried first.
            outcome = "the origin answered \(code)"
        } catch let error as ImgCacheError {
            outcome = error.description
        }
        // end snippet
        XCTAssertEqual(outcome, "the origin answered 404")

        // snippet shutdown
        // Calls in flight finish, the threads end, the cache index closes.
        await pipeline.shutdown()
        // end snippet
        do {
            _ = try await pipeline.image(for: request)
            XCTFail("a pipeline that was shut down prepared an image")
        } catch ImgCacheError.shutDown {}
    }

    func testDecodingWithoutThePipeline() throws {
        let path = Self.repository.appendingPathComponent("Samples/media/spinner.gif").path
        // snippet decode
        let options = DecodingOptions(
            targetSize: PixelSize(width: 100, height: 100), contentMode: .fit,
            maxFrames: 8)
        // The first 8 frames, at 100x100.
        let image = try ImageDecoder.decode(.file(path: path), options: options)
        let png = try PNGEncoder.encode(image.frames[0].bitmap)
        // end snippet
        XCTAssertEqual(image.frames.count, 8)
        XCTAssertEqual(image.size, PixelSize(width: 100, height: 100))
        XCTAssertEqual(try ImageDecoder.inspect(.data(png)).format, .png)
    }

    // MARK: Using imgcache in a service

    func testUsingImgCacheInAService() async throws {
        let presignedURL = nginx.url("/photo.jpg?X-Amz-Date=20261201T120000Z&X-Amz-Signature=aa")
        let resignedURL = nginx.url("/photo.jpg?X-Amz-Date=20261201T130000Z&X-Amz-Signature=bb")
        // snippet service-configuration
        var configuration = ImagePipeline.Configuration()
        configuration.diskCache.root = cacheFolder
        // Sent with every download.
        configuration.loading.headers = ["X-Client": "feed-service/1"]
        // Presigned URLs of one object share a key.
        configuration.keyPolicy = CacheKeyPolicy(ignoredQueryItems: ["X-Amz-*"])
        let pipeline = try ImagePipeline(configuration: configuration)
        // end snippet

        // snippet service-request
        var request = ImageRequest(
            url: presignedURL, target: .pixels(PixelSize(width: 600, height: 400)),
            contentMode: .crop)
        // Sent to this origin only, never after a redirect to another.
        request.headers = ["Authorization": "Bearer user-token"]
        // The original is used once, never written.
        request.storage = .variantsOnly
        // Ahead of background prefetches.
        request.priority = .high
        let summary = try await pipeline.prepare(request)  // 600x400
        // end snippet
        XCTAssertEqual(summary.pixelSize, PixelSize(width: 600, height: 400))
        XCTAssertEqual(summary.cacheOutcome, .network)
        let log = try nginx.accessLog(count: 1)
        XCTAssertEqual(log.first?.headers["authorization"], "Bearer user-token")
        XCTAssertEqual(log.first?.headers["x-client"], "feed-service/1")

        // snippet service-task
        let thumbnail = ImageRequest(
            url: resignedURL, target: .pixels(PixelSize(width: 300, height: 200)))
        let task = pipeline.task(for: thumbnail)
        var outcome: CacheOutcome?
        for await event in task.events {
            switch event {
            case .started, .progress:
                break
            case .cacheOutcome(let found):
                outcome = found  // .network: .variantsOnly kept no original
            case .finished(let response):
                print("prepared \(response.pixelSize), \(response.byteCount) bytes")
            case .failed(let error):
                print("failed: \(error)")
            }
        }
        // end snippet
        XCTAssertEqual(outcome, .network)

        // snippet service-cache-only
        request.url = resignedURL  // another signature, the same key
        // A miss fails with ImgCacheError.notCached; nothing is sent.
        request.cachePolicy = .cacheOnly
        let again = try await pipeline.prepare(request)  // again.cacheOutcome: .disk
        // end snippet
        XCTAssertEqual(again.cacheOutcome, .disk)
        XCTAssertEqual(try nginx.accessLog(count: 2).count, 2)

        // snippet service-metrics
        // Serve it as text/plain; version=0.0.4.
        let metrics = pipeline.metrics.prometheusText()
        // end snippet
        XCTAssertTrue(metrics.contains("imgcache_origin_requests_total 2\n"), metrics)
        XCTAssertTrue(metrics.contains("imgcache_requests_total{outcome=\"network\"} 2\n"), metrics)
        XCTAssertTrue(metrics.contains("imgcache_requests_total{outcome=\"disk\"} 1\n"), metrics)
        await pipeline.shutdown()
    }

    // MARK: Caching and tiers

    func testCachingAndTiers() async throws {
        // Small, so that the debug build renders the phones' sizes quickly (none is upscaled).
        try TestImage.jpeg(width: 640, height: 400).write(to: nginx.root.appendingPathComponent("small.jpg"))
        let url = nginx.url("/small.jpg")
        let feedURL = nginx.url("/feed.json")
        try Data("{\"items\": []}".utf8).write(to: nginx.root.appendingPathComponent("feed.json"))
        var configuration = ImagePipeline.Configuration()
        configuration.diskCache.root = cacheFolder
        let pipeline = try ImagePipeline(configuration: configuration)

        // snippet prefetch
        let phones = DeviceCatalog.devices.filter { $0.kind == .iPhone }
        let requests = phones.flatMap { device in
            [WidgetFamily.small, .medium, .large]
                .filter { device.widgetSizes[$0] != nil }
                .map { family in
                    ImageRequest(
                        url: url, target: .widget(family, device: device),
                        contentMode: .crop)
                }
        }
        // One download; each distinct size rendered once.
        let results = await pipeline.prefetch(requests)
        // end snippet
        XCTAssertEqual(results.count, requests.count)
        for result in results { _ = try result.get() }
        XCTAssertEqual(try nginx.accessLog(count: 1).count, 1)

        // snippet data-for
        let feed = try await pipeline.data(for: feedURL)
        if feed.changed {
            // New bytes (the first fetch counts as changed): parse feed.data.
        }
        // From the disk cache: unchanged.changed is false.
        let unchanged = try await pipeline.data(for: feedURL)
        // end snippet
        XCTAssertTrue(feed.changed)
        XCTAssertFalse(unchanged.changed)
        XCTAssertEqual(unchanged.cacheOutcome, .disk)
        XCTAssertEqual(unchanged.data, Data("{\"items\": []}".utf8))
        await pipeline.shutdown()

        // snippet disk-cache
        let cache = try DiskCache(
            configuration: DiskCache.Configuration(root: cacheFolder))
        // Entries, bytes, originals and variants.
        let stats = try cache.stats()
        // report.isConsistent: every row has its file, every file its row.
        let report = try cache.verify(repair: false)
        cache.close()
        // end snippet
        XCTAssertEqual(stats.originalCount, 2)
        XCTAssertEqual(stats.variantCount, stats.entryCount - 2)
        XCTAssertGreaterThan(stats.variantCount, 10)
        XCTAssertTrue(report.isConsistent)

        // snippet redis
        var redis = try RedisConfiguration(
            url: "redis://:password@cache.internal:6379/0")
        // The same secret on every instance.
        redis.secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        configuration.redis = redis
        // end snippet
        XCTAssertEqual(configuration.redis?.deployment, .server(RedisAddress(host: "cache.internal", port: 6379)))
        XCTAssertEqual(configuration.redis?.password, "password")
        XCTAssertNoThrow(try configuration.redis?.validate())
    }

    // MARK: Widgets and home screens

    func testWidgetsAndHomeScreens() async throws {
        // snippet widget-sizes
        let device = try DeviceCatalog.device(named: "iPhone 16 Pro")
        // 1032x486: 344x162 points at 3x.
        let medium = try device.widgetPixels(.medium)

        // No source publishes the iPhone Air's widget sizes.
        let air = try DeviceCatalog.device(named: "iPhone Air")
        let small = try ImageTarget.widget(.small, device: air).resolve()
        // small.isEstimated: true;
        // small.expectedErrorPixels: how far off an edge may be.
        // end snippet
        XCTAssertEqual(medium, PixelSize(width: 1032, height: 486))
        XCTAssertTrue(small.isEstimated)
        XCTAssertNotNil(small.expectedErrorPixels)

        var configuration = ImagePipeline.Configuration()
        configuration.diskCache.root = cacheFolder
        let pipeline = try ImagePipeline(configuration: configuration)
        let url = nginx.url("/photo.jpg")
        // snippet timeline
        var request = ImageRequest(
            url: url, target: .widget(.large, device: device), contentMode: .crop)
        // 20 MB of images over 24 entries: 873,813 bytes of pixels each.
        request.timeline = TimelineBudget(entries: 24, fitsImage: true)
        // Smaller than asked, to fit.
        let entry = try await pipeline.prepare(request)
        // end snippet
        XCTAssertEqual(TimelineBudget(entries: 24).bytesPerEntry, 873_813)
        XCTAssertLessThanOrEqual(entry.pixelSize.width * entry.pixelSize.height * 4, 873_813)
        XCTAssertGreaterThan(entry.pixelSize.width * entry.pixelSize.height * 4, 800_000)
        request.timeline = TimelineBudget(entries: 24)
        do {
            _ = try await pipeline.prepare(request)
            XCTFail("a frame over the entry's budget was prepared")
        } catch ImgCacheError.overTimelineBudget(_, _, let bytesPerEntry, let entries) {
            XCTAssertEqual(bytesPerEntry, 873_813)
            XCTAssertEqual(entries, 24)
        }

        let screenshotPath = Self.repository.appendingPathComponent("Samples/media/home-screen.png").path
        // snippet slicer
        let slicer = try WallpaperSlicer(
            screenshot: .file(path: screenshotPath), icons: .small)
        // 1032x486 on an iPhone 16 Pro screenshot.
        let background = try slicer.slice(.medium, at: .top)
        // Every slot, from one decode.
        let all = try slicer.slices()
        // end snippet
        XCTAssertEqual(background.size, PixelSize(width: 1032, height: 486))
        XCTAssertEqual(all.count, slicer.layout.slots.count)
        XCTAssertEqual(all.count, 11)

        try FileManager.default.copyItem(atPath: screenshotPath, toPath: nginx.root.appendingPathComponent("home.png").path)
        let screenshotURL = nginx.url("/home.png")
        // snippet slices-through-cache
        let slices = slicer.layout.slots.map { slot in
            WallpaperSlicer.request(for: slot, ofScreenshotAt: screenshotURL)
        }
        // One download and one decode for every slot.
        let stored = await pipeline.prefetch(slices)
        // end snippet
        XCTAssertEqual(try stored.map { try $0.get().pixelSize }, slicer.layout.slots.map(\.rect.size))
        XCTAssertEqual(try nginx.accessLog(count: 2).filter { $0.path == "/home.png" }.count, 1)
        await pipeline.shutdown()
    }

    // MARK: The README and docs

    /// The front page's example, compiled only: its URL is not on this machine
    /// (`testGettingStarted` runs the same calls against nginx).
    private func frontPageExample() async throws {
        // snippet front-page
        let pipeline = try ImagePipeline()
        let device = try DeviceCatalog.device(named: "iPhone 16 Pro")
        let photo = URL(string: "https://example.com/photo.jpg")!
        let response = try await pipeline.image(for: ImageRequest(
            url: photo, target: .widget(.medium, device: device), contentMode: .crop))
        // response.pixelSize: 1032x486, response.pointSize: 344x162, response.cacheOutcome: .network
        await pipeline.shutdown()
        // end snippet
        _ = response
    }

    func testTheProcessingPagesProcessor() async throws {
        var configuration = ImagePipeline.Configuration()
        configuration.diskCache.root = cacheFolder
        let pipeline = try ImagePipeline(configuration: configuration)
        let url = nginx.url("/photo.jpg")
        let device = try DeviceCatalog.device(named: "iPhone 16 Pro")
        // snippet processor
        struct Grayscale: ImageProcessing {
            var identifier: String { "grayscale" }
            func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
                var image = image
                for index in image.frames.indices {
                    var pixels = image.frames[index].bitmap.pixels
                    for offset in stride(from: 0, to: pixels.count, by: 4) {
                        let luma = (54 * Int(pixels[offset]) + 183 * Int(pixels[offset + 1]) + 19 * Int(pixels[offset + 2])) >> 8
                        pixels.replaceSubrange(offset..<offset + 3, with: repeatElement(UInt8(luma), count: 3))
                    }
                    image.frames[index].bitmap = try Bitmap(size: image.frames[index].bitmap.size, pixels: pixels)
                }
                return image
            }
        }
        let request = ImageRequest(url: url, target: .widget(.medium, device: device), contentMode: .crop, processors: [Grayscale()])
        // end snippet
        let colour = try await pipeline.image(for: ImageRequest(url: url, target: .widget(.medium, device: device), contentMode: .crop))
        let grey = try await pipeline.image(for: request)
        XCTAssertEqual(grey.pixelSize, PixelSize(width: 1032, height: 486))
        XCTAssertTrue(grey.variantKey.contains(";process=grayscale"), grey.variantKey)
        // Each pixel the grey variant was encoded from is the luma of the colour one's.
        let (before, after) = (colour.image.frames[0].bitmap.pixels, grey.image.frames[0].bitmap.pixels)
        for offset in stride(from: 0, to: before.count, by: 4) {
            let weighted: Int = 54 * Int(before[offset]) + 183 * Int(before[offset + 1]) + 19 * Int(before[offset + 2])
            let luma = UInt8(weighted >> 8)
            guard Array(after[offset..<offset + 4]) == [luma, luma, luma, before[offset + 3]] else {
                return XCTFail("pixel \(offset / 4): \(after[offset..<offset + 4]) for \(before[offset..<offset + 4])")
            }
        }
        await pipeline.shutdown()
    }
}
