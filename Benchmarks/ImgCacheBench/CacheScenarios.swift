import Foundation
import ImgCache
import Synchronization

// Cache scenarios need no corpus (empty input). Each prepares its cache at its first (warm-up) run,
// in a folder under TMPDIR that is removed when the benchmark child exits. In "-x1000" scenarios one
// run is 1,000 operations, so the table's milliseconds read as microseconds per operation.
extension Scenario {
    static let cache: [Scenario] = [memoryHits, diskHits, puts(sync: true), puts(sync: false), sweep]

    /// 1,000 memory-cache hits on 64 decoded 100x100 images (40,000 bytes each).
    static let memoryHits: Scenario = {
        let fixture = Fixture<MemoryCache<String, DecodedImage>> {
            let cache = MemoryCache<String, DecodedImage>()
            let frame = ImageFrame(bitmap: try Bitmap(size: PixelSize(width: 100, height: 100), pixels: [UInt8](repeating: 7, count: 40_000)))
            let image = DecodedImage(info: ImageInfo(format: .png, sourceSize: frame.bitmap.size), frames: [frame])
            for index in 0..<64 { cache.set(image, for: "https://example.com/\(index).png|fit 100x100") }
            return cache
        }
        let keys = (0..<64).map { "https://example.com/\($0).png|fit 100x100" }
        return Scenario(name: "cache-memory-hit-x1000", input: "") { _ in
            let cache = try fixture.value()
            for index in 0..<1000 {
                guard cache.value(for: keys[index & 63]) != nil else { throw ImgCacheError.invalidArgument("memory miss") }
            }
        }
    }()

    /// 1,000 disk-cache reads (`data(for:)`) of 100 KB entries, cycling over 64 keys; reads are stamped
    /// and flushed as configured by default (every 64 reads).
    static let diskHits: Scenario = {
        let keys = (0..<64).map { "https://example.com/photos/\($0).jpg" }
        let fixture = Fixture<DiskCache> {
            let cache = try DiskCache(configuration: .init(root: try benchmarkFolder("disk-hits")))
            for key in keys { try cache.store(Data(repeating: 1, count: 100 * 1024), for: key) }
            return cache
        }
        return Scenario(name: "cache-disk-hit-100KB-x1000", input: "") { _ in
            let cache = try fixture.value()
            for index in 0..<1000 {
                guard try cache.data(for: keys[index & 63])?.count == 100 * 1024 else {
                    throw ImgCacheError.invalidArgument("disk miss")
                }
            }
        }
    }()

    /// 100 stores of 100 KB over 1,000 keys (so later runs replace entries), with `syncWrites` on
    /// (the default: durable before returning) or off.
    static func puts(sync: Bool) -> Scenario {
        let fixture = Fixture<(DiskCache, Counter)> {
            let root = try benchmarkFolder(sync ? "puts-sync" : "puts-nosync")
            return (try DiskCache(configuration: .init(root: root, syncWrites: sync)), Counter())
        }
        let data = Data((0..<100 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        return Scenario(name: "cache-put-100KB-\(sync ? "sync" : "nosync")-x100", input: "") { _ in
            let (cache, counter) = try fixture.value()
            for _ in 0..<100 { try cache.store(data, for: "https://example.com/put/\(counter.next() % 1000).jpg") }
        }
    }

    /// One sweep of a cache holding 100,000 entries of 1 KB over its limit, down to the low-water mark
    /// (about 30,000 evicted). Before each run, untimed, the entries evicted by the last run are replaced.
    static let sweep: Scenario = {
        let entryCount = 100_000
        let entrySize = 1000
        let fixture = Fixture<(filler: DiskCache, sweeper: DiskCache, counter: Counter)> {
            let root = try benchmarkFolder("sweep")
            let filler = try DiskCache(configuration: .init(root: root, syncWrites: false, sweepsWhenOverLimit: false))
            let sweeper = try DiskCache(configuration: .init(root: root, sizeLimit: entryCount * entrySize - 1, syncWrites: false))
            return (filler, sweeper, Counter())
        }
        let data = Data(repeating: 5, count: entrySize)
        return Scenario(name: "cache-sweep-100000", input: "") { _ in
            let (filler, sweeper, counter) = try fixture.value()
            try Untimed.run {
                for _ in try filler.stats().entryCount..<entryCount {
                    try filler.store(data, for: "https://example.com/sweep/\(counter.next()).png")
                }
            }
            let result = try sweeper.sweep()
            guard result.removedCount > 0, result.remainingBytes <= sweeper.configuration.sizeLimit else {
                throw ImgCacheError.invalidArgument("sweep removed \(result.removedCount)")
            }
        }
    }()

    /// A folder for one scenario's cache under this process's benchmark folder, removed at exit.
    static func benchmarkFolder(_ name: String) throws -> URL {
        _ = removeBenchmarkRootAtExit
        return URL(fileURLWithPath: benchmarkRoot).appendingPathComponent(name)
    }

    private static let removeBenchmarkRootAtExit: Void = {
        atexit { try? FileManager.default.removeItem(atPath: benchmarkRoot) }
    }()
}

/// The folder holding this benchmark process's caches.
private let benchmarkRoot = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/imgcache-bench-cache-\(getpid())"

/// A value made on first use and shared by a scenario's runs.
private final class Fixture<Value: Sendable>: Sendable {
    private let make: @Sendable () throws -> Value
    private let made = Mutex<Value?>(nil)

    init(_ make: @escaping @Sendable () throws -> Value) { self.make = make }

    func value() throws -> Value {
        try made.withLock { made in
            if let made { return made }
            let value = try make()
            made = value
            return value
        }
    }
}

/// A thread-safe counter for fresh keys.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func next() -> Int { count.wrappingAdd(1, ordering: .relaxed).oldValue }
}
