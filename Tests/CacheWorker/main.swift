// cache-worker: a process that uses a shared disk cache, for the multi-process and crash tests.
//
//   cache-worker mixed --root DIR --worker N --ops N --seed N [--size-limit BYTES] [--sync 0|1]
//       mixed put/get/remove/sweep; prints "final KEY VERSION|removed" for its own keys, then counts
//   cache-worker crash --root DIR --seed N [--size-limit BYTES]
//       prints "ready", then stores, removes and sweeps until it is killed
//   cache-worker big-write --root DIR
//       makes a 128 MiB payload, prints "ready", then stores it (synced) and prints "stored"
//   cache-worker check --root DIR
//       opens the cache and reads every entry back, checking its bytes and that its ETag names the
//       version in the file; prints "entry KEY VERSION" for each
//   cache-worker check-files --root DIR
//       without opening the cache, checks that every file in data/ is a complete payload of its key
//
// Exits 1, with one line on standard error, at the first error or wrong byte.
import Foundation
import ImgCache

struct WorkerFailure: Error, CustomStringConvertible {
    let description: String
}

let words = Array(CommandLine.arguments.dropFirst())
let options: [String: String] = Dictionary(
    zip(words.dropFirst(), words.dropFirst(2)).filter { $0.0.hasPrefix("--") }.map { (String($0.0.dropFirst(2)), $0.1) },
    uniquingKeysWith: { $1 })

func number(_ name: String, _ fallback: Int? = nil) throws -> Int {
    guard let value = options[name].flatMap(Int.init) ?? fallback else { throw WorkerFailure(description: "--\(name) N needed") }
    return value
}

func openCache(sizeLimit: Int, sync: Bool, sweeps: Bool = true) throws -> DiskCache {
    guard let root = options["root"] else { throw WorkerFailure(description: "--root DIR needed") }
    return try DiskCache(configuration: .init(
        root: URL(fileURLWithPath: root), sizeLimit: sizeLimit, syncWrites: sync, sweepsWhenOverLimit: sweeps,
        accessStampFlushCount: 8))
}

do {
    switch words.first {
    case "mixed":
        let cache = try openCache(sizeLimit: try number("size-limit", 512 * 1024), sync: try number("sync", 1) == 1)
        var workload = MixedWorkload(cache: cache, worker: try number("worker"), seed: UInt64(try number("seed")))
        try workload.run(operations: try number("ops"))
        for (key, version) in workload.versions.sorted(by: { $0.key < $1.key }) { print("final \(key) \(version)") }
        print("counts " + workload.counts.sorted(by: { $0.key < $1.key }).map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    case "crash":
        let cache = try openCache(sizeLimit: try number("size-limit", 1024 * 1024), sync: true)
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        var workload = CrashWorkload(cache: cache, seed: UInt64(try number("seed")))
        try workload.run()
    case "big-write":
        // One store of a payload large enough (128 MiB, flushed) that a test sees its temporary
        // file in tmp/ and kills the process before the rename. The bytes are made before "ready",
        // so that writing starts as soon as the test is told.
        let cache = try openCache(sizeLimit: Int.max, sync: true)
        let payload = Payload(key: "big", version: "\(getpid()).1", size: 128 << 20)
        let bytes = payload.bytes
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        try cache.store(bytes, for: "big", etag: "\"\(payload.version)\"")
        print("stored")
    case "check":
        let cache = try openCache(sizeLimit: Int.max, sync: false, sweeps: false)
        for entry in try cache.entries() {
            guard let data = try cache.data(for: entry.key) else { throw WorkerFailure(description: "\(entry.key): listed but missing") }
            guard let payload = Payload(validating: data), payload.key == entry.key else {
                throw WorkerFailure(description: "\(entry.key): wrong or partial bytes")
            }
            // Workers store each version with its name as ETag: the row must describe the file.
            guard entry.etag == "\"\(payload.version)\"" else {
                throw WorkerFailure(description: "\(entry.key): row has ETag \(entry.etag ?? "none"), file is \(payload.version)")
            }
            print("entry \(entry.key) \(payload.version)")
        }
    case "check-files":
        guard let root = options["root"] else { throw WorkerFailure(description: "--root DIR needed") }
        let data = URL(fileURLWithPath: root).appendingPathComponent("data")
        let names = try FileManager.default.contentsOfDirectory(atPath: data.path)
        for name in names {
            let bytes = try Data(contentsOf: data.appendingPathComponent(name))
            guard let payload = Payload(validating: bytes), name.hasPrefix(CacheKey.hashedName(for: payload.key)) else {
                throw WorkerFailure(description: "data/\(name): partial or foreign file of \(bytes.count) bytes")
            }
        }
        print("files \(names.count)")
    default:
        throw WorkerFailure(description: "usage: cache-worker mixed|crash|big-write|check|check-files --root DIR ...")
    }
} catch {
    FileHandle.standardError.write(Data("cache-worker: \(error)\n".utf8))
    exit(1)
}
