import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// The pipeline's blocking work (decodes, and a cache index another process has locked) never
/// occupies Swift's cooperative threads: other tasks keep running while it waits.
final class PipelineBlockingTests: XCTestCase {
    func testCooperativeTasksRunWithin50msWhileDecodesAndALockedCacheKeepThePipelineBusy() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-blocking-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let loader = CountingLoader()
        let photo = try PNGEncoder.encode(TestImages.scene(width: 1500, height: 1000))
        let urls = (0..<8).map { URL(string: "https://example.test/\($0).png")! }
        for url in urls { loader.serve(url, .init(data: photo)) }
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        let pipeline = try ImagePipeline(configuration: .init(dataLoader: loader, diskCache: disk))
        // Four originals stored before the lock: their requests decode, then wait to store.
        for url in urls.prefix(4) { _ = try await pipeline.prepare(ImageRequest(url: url)) }

        // Another process takes the index's write lock for 1.5 s.
        let locker = Process()
        locker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        locker.arguments = ["python3", "-c", """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
            db.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            time.sleep(1.5)
            db.execute("COMMIT")
            """, root.appendingPathComponent("index.sqlite").path]
        let output = Pipe()
        locker.standardOutput = output
        try locker.run()
        defer { if locker.isRunning { locker.terminate() } }
        let line = output.fileHandleForReading.availableData
        XCTAssertTrue(String(decoding: line, as: UTF8.self).hasPrefix("locked"))

        let started = Date()
        let work = Task {
            await withThrowingTaskGroup(of: Void.self) { group in
                for (index, url) in urls.enumerated() {
                    let target = ImageTarget.pixels(PixelSize(width: 300 + index, height: 200))
                    group.addTask { _ = try await pipeline.image(for: ImageRequest(url: url, target: target)) }
                }
            }
        }
        // Meanwhile a task on the cooperative pool is started every 20 ms and timed to its first
        // line, and this loop (itself on the pool) times how late each 20 ms sleep ends.
        var worst = 0.0
        var samples = 0
        while Date().timeIntervalSince(started) < 1.2 {
            let asked = DispatchTime.now()
            let waited = await Task.detached { ImagePipeline.seconds(since: asked) }.value
            worst = max(worst, waited)
            samples += 1
            let sleep = DispatchTime.now()
            try await Task.sleep(for: .milliseconds(20))
            worst = max(worst, ImagePipeline.seconds(since: sleep) - 0.02)
        }
        await work.value
        let busy = Date().timeIntervalSince(started)
        print("blocking test: \(samples) cooperative tasks, worst start \(Int(worst * 1000)) ms, pipeline busy \(Int(busy * 1000)) ms")
        XCTAssertGreaterThan(busy, 1.2, "the lock kept the pipeline busy for the whole measurement")
        XCTAssertGreaterThan(samples, 20)
        XCTAssertLessThan(worst, 0.05)
        // Every request got its image once the lock was released.
        for (index, url) in urls.enumerated() {
            let target = ImageTarget.pixels(PixelSize(width: 300 + index, height: 200))
            let response = try await pipeline.prepare(ImageRequest(url: url, target: target))
            XCTAssertEqual(response.cacheOutcome, .memory)
        }
    }
}
