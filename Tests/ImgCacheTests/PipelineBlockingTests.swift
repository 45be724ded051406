import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// The pipeline's blocking work (decodes, and a cache index another process has locked) never
/// occupies Swift's cooperative threads: other tasks keep running while it waits.
final class PipelineBlockingTests: XCTestCase {
    /// One request downloads its original and waits to store it in an index another process has
    /// locked, holding the index while it waits; seven more wait for the index to look in the
    /// cache: all four blocking threads wait for that lock, and jobs queue behind them. Meanwhile
    /// one task per core holds a cooperative thread until all of them do (so no cooperative
    /// thread waits for the lock), and four tasks per core start, meet at a gate the test opens
    /// once all have reached it, and run to their end; only then is the lock released, and every
    /// request gets its image. A pipeline that waited for the lock on a cooperative thread would
    /// leave the tasks too few threads until the locker gave up.
    func testManyMoreTasksThanCoresRunToTheEndWhileEveryBlockingThreadWaitsForAnotherProcessesLock() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-blocking-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let loader = CountingLoader()
        let photo = try PNGEncoder.encode(TestImages.scene(width: 1500, height: 1000))
        let urls = (0..<8).map { URL(string: "https://example.test/\($0).png")! }
        for url in urls { loader.serve(url, .init(data: photo)) }
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        // Longer than the locker below ever holds the lock: the pipeline never gives up waiting.
        disk.lockTimeout = 600
        // Two decodes at once: four blocking threads, fewer than the eight requests.
        let pipeline = try ImagePipeline(configuration: .init(dataLoader: loader, diskCache: disk, maxConcurrentDecodes: 2))
        XCTAssertEqual(pipeline.blocking.threadCount, 4)

        // Another process takes the index's write lock and holds it until the test ends it (which
        // releases the lock). Its deadline only ends a broken run, in which the cooperative
        // threads wait for the lock and the test cannot get to ending it: here the lock is held
        // for well under a second (a few on a loaded machine), so 90 s is far beyond it.
        let locker = Process()
        locker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        locker.arguments = ["python3", "-c", """
            import signal, sqlite3, sys, time
            signal.pthread_sigmask(signal.SIG_SETMASK, [])  # a child starts with its spawner's mask
            db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)
            db.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            time.sleep(90)
            print("deadline", flush=True)
            db.execute("COMMIT")
            """, root.appendingPathComponent("index.sqlite").path]
        let output = Pipe()
        locker.standardOutput = output
        try locker.run()
        defer { if locker.isRunning { locker.terminate() } }
        XCTAssertEqual(try Self.line(from: output.fileHandleForReading), "locked")

        let finished = Arrivals()
        func start(_ index: Int) -> Task<ImageResponse, any Error> {
            let target = ImageTarget.pixels(PixelSize(width: 300 + index, height: 200))
            return Task {
                defer { finished.arrive() }
                return try await pipeline.image(for: ImageRequest(url: urls[index], target: target))
            }
        }
        // The first request: once its download has started, its next blocking job is the store,
        // and nothing else uses the cache: once the cache's lock is taken, that store holds it
        // while it waits for the index's (which stays so while the locker holds it).
        var requests = [start(0)]
        try await waitUntil("the first store holds the disk cache while it waits for the lock", timeout: .seconds(120)) {
            (loader.loads == 1 && pipeline.diskCache.state.withLockIfAvailable { _ in true } == nil) || finished.count > 0
        }
        // Seven more, whose lookups wait for the cache: a job queued means every blocking thread
        // has one, and every one of them waits. (A request finished means the lock held nothing:
        // a broken run, which ends at the locker's deadline, within these waits' bound.)
        requests += (1..<urls.count).map(start)
        try await waitUntil("every blocking thread waits, with jobs queued behind them", timeout: .seconds(120)) {
            pipeline.blocking.queue.slotCount > 0 || finished.count > 0
        }
        XCTAssertEqual(finished.count, 0, "no request can finish while the lock is held")

        // As many tasks as the cooperative pool has threads (one per core) each hold a thread
        // until all of them do: every thread of the pool is free of the pipeline's work. (The
        // barrier gives up after 30 s, before the locker's deadline, only so that a broken run
        // fails here.)
        let width = ProcessInfo.processInfo.activeProcessorCount
        let barrier = ThreadBarrier(count: width)
        let together = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<width { group.addTask { barrier.arriveAndWait(timeout: 30) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(together, [Bool](repeating: true, count: width), "every cooperative thread ran a task at once")
        // Many more tasks than that each start, reach a gate and, once all have, run to their end.
        let probeCount = 4 * width
        let arrived = Arrivals(), gate = Gate(), ended = Arrivals()
        let probes = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<probeCount {
                    group.addTask {
                        arrived.arrive()
                        try await gate.wait()
                        ended.arrive()
                    }
                }
                try await group.waitForAll()
            }
        }
        await arrived.wait(for: probeCount)
        gate.open()
        try await probes.value
        XCTAssertEqual(ended.count, probeCount)
        // ... while the blocking threads still waited for the lock.
        XCTAssertEqual(finished.count, 0, "every request still waited for the lock while the tasks ran")
        XCTAssertGreaterThan(pipeline.blocking.queue.slotCount, 0, "jobs still queued behind the lock")
        XCTAssertNil(pipeline.diskCache.state.withLockIfAvailable { _ in true }, "the first store still held the disk cache")

        // Ending the locker releases its lock. Had it reached its deadline, it would have said so
        // before letting go.
        locker.terminate()
        locker.waitUntilExit()
        XCTAssertEqual(try Self.line(from: output.fileHandleForReading), "", "the locker held the lock until the test ended it")
        // Every request got its image once the lock was released.
        for (index, url) in urls.enumerated() {
            // The 3:2 photo fits each 300+ x 200 box at 300 x 200.
            let image = try await requests[index].value
            XCTAssertEqual(image.pixelSize, PixelSize(width: 300, height: 200), url.absoluteString)
            let target = ImageTarget.pixels(PixelSize(width: 300 + index, height: 200))
            let response = try await pipeline.prepare(ImageRequest(url: url, target: target))
            XCTAssertEqual(response.cacheOutcome, .memory)
        }
        // One origin request per URL.
        XCTAssertEqual(loader.requests.map(\.url).sorted { $0.absoluteString < $1.absoluteString }, urls)
    }

    /// The next line `handle` gives, without its newline ("" at the end of the output).
    private static func line(from handle: FileHandle) throws -> String {
        var bytes = Data()
        while let byte = try handle.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { bytes += byte }
        return String(decoding: bytes, as: UTF8.self)
    }
}
