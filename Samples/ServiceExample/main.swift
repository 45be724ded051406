import Foundation
import ImgCache

// A service preparing widget images from presigned object-store URLs, with its own object-store
// tier behind the disk cache. Usage: service-example URL CACHE_DIR STORE_DIR
// (docs/library.md, "Using imgcache in a service", shows this file; a test runs it against nginx.)

/// A shared tier: files in a folder (mounted from an object store, say), named by key hash.
final class FolderTier: DataCaching {
    let folder: URL
    init(folder: URL) { self.folder = folder }

    var isShared: Bool { true }

    private func file(_ key: String) -> URL { folder.appendingPathComponent(CacheKey.hashedName(for: key)) }

    // A real store keeps the validators and expiry beside the bytes; this one calls a copy fresh for a day.
    func cachedData(for key: String) throws -> CachedData? {
        guard let bytes = try? Data(contentsOf: file(key)) else { return nil }
        return CachedData(data: bytes, expiresAt: Date().addingTimeInterval(86_400))
    }

    func storeData(_ data: CachedData, for key: String, kind: CacheEntry.Kind) throws -> CachedData? {
        try data.data().write(to: file(key), options: .atomic)
        return data
    }

    func removeData(for key: String) throws {
        try? FileManager.default.removeItem(at: file(key))
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let url = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: service-example URL CACHE_DIR STORE_DIR\n".utf8))
    exit(2)
}
var configuration = ImagePipeline.Configuration()
configuration.diskCache.root = URL(fileURLWithPath: arguments[2], isDirectory: true)
configuration.loading.headers = ["X-Client": "feed-service/1"]  // sent with every download
configuration.keyPolicy = CacheKeyPolicy(ignoredQueryItems: ["X-Amz-*"])  // presigned URLs share a key
configuration.tiers = [FolderTier(folder: URL(fileURLWithPath: arguments[3], isDirectory: true))]
let pipeline = try ImagePipeline(configuration: configuration)

let device = try DeviceCatalog.device(named: "iPhone 16 Pro")
var request = ImageRequest(url: url, target: .widget(.medium, device: device), contentMode: .crop)
request.headers = ["Authorization": "Bearer example-token"]  // never sent to another origin
request.storage = .variantsOnly  // the original is used once, never written
request.priority = .high  // ahead of background prefetches in this process

let task = pipeline.task(for: request)
for await event in task.events {
    switch event {
    case .started: print("started")
    case .progress(let progress): print("received \(progress.receivedBytes) of \(progress.expectedBytes ?? -1) bytes")
    case .cacheOutcome(let outcome): print("outcome \(outcome)")
    case .finished(let response): print("prepared \(response.pixelSize) at \(response.fileURL?.path ?? "-")")
    case .failed(let error): print("failed: \(error)")
    }
}
// Strictly from the caches: a miss fails with ImgCacheError.notCached, no request is made.
request.cachePolicy = .cacheOnly
let again = try await pipeline.prepare(request)
print("again from \(again.cacheOutcome)")
print(pipeline.metrics.prometheusText(), terminator: "")
// Before exiting: calls in flight finish, the pipeline's threads end, the cache index closes.
await pipeline.shutdown()
