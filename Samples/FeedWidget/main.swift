// FeedWidget: what a widget's timeline provider does, on Linux.
//
//   feed-widget FEED_URL [--devices all|"iPhone 16 Pro,iPad Air 2"] [--widget small,medium,large]
//               [--polls 3] [--interval 2] [--cache-dir DIR]
//
// Each poll fetches the JSON feed through the cache. When it has not changed (a fresh copy, a 304,
// or identical bytes), the poll does nothing else. When it has, every item's image is prefetched
// at every listed widget family's pixel size on every listed device (default: every device in the
// catalogue, small, medium and large; crop mode, pixel-exact; sizes a device lacks are skipped),
// and the poll prints what it prepared. An item's image is downloaded and decoded once for all
// its sizes. The feed is {"items": [{"title": "...", "image": "https://..."}]}.
import Foundation
import ImgCache

struct Feed: Decodable {
    struct Item: Decodable {
        let title: String
        let image: URL
    }
    let items: [Item]
}

func option(_ name: String, _ fallback: String) -> String {
    let words = CommandLine.arguments
    guard let index = words.firstIndex(of: name), index + 1 < words.count else { return fallback }
    return words[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("feed-widget: \(message)\n".utf8))
    exit(1)
}

guard CommandLine.arguments.count > 1, let feedURL = URL(string: CommandLine.arguments[1]), feedURL.scheme != nil else {
    fail("usage: feed-widget FEED_URL [--devices all|LIST] [--widget FAMILIES] [--polls N] [--interval SECONDS] [--cache-dir DIR]")
}
let families = option("--widget", "small,medium,large").split(separator: ",").map {
    WidgetFamily(rawValue: $0.trimmingCharacters(in: .whitespaces))
}
guard !families.isEmpty, families.allSatisfy({ $0 != nil }) else { fail("unknown widget family") }
let polls = Int(option("--polls", "3")) ?? 3
let interval = Double(option("--interval", "2")) ?? 2
let devices: [DeviceModel]
do {
    let names = option("--devices", "all")
    devices = names == "all" ? DeviceCatalog.devices : try names.split(separator: ",").map {
        try DeviceCatalog.device(named: $0.trimmingCharacters(in: .whitespaces))
    }
} catch {
    fail("\(error)")
}
var diskCache = DiskCache.Configuration()
if CommandLine.arguments.contains("--cache-dir") { diskCache.root = URL(fileURLWithPath: option("--cache-dir", "")) }

let pipeline: ImagePipeline
do {
    pipeline = try ImagePipeline(configuration: ImagePipeline.Configuration(diskCache: diskCache))
} catch {
    fail("\(error)")
}

/// One poll: the feed, then (when it changed) its images at every device's widget size.
func poll(_ number: Int) async throws {
    let feed = try await pipeline.data(for: feedURL)
    guard feed.changed else {
        print("poll \(number): feed unchanged (\(feed.cacheOutcome.rawValue)), nothing to do")
        return
    }
    let items = try JSONDecoder().decode(Feed.self, from: feed.data).items
    // Every widget size of every device that has it published.
    let targets = devices.flatMap { device in
        families.compactMap { $0 }.filter { device.widgetSizes[$0] != nil }.map { ImageTarget.widget($0, device: device) }
    }
    print("poll \(number): feed changed (\(feed.cacheOutcome.rawValue)), \(items.count) items x \(targets.count) widget sizes")
    // The requests of one item's image are prepared together: one download, one decode per DCT scale.
    let requests = items.flatMap { item in targets.map { ImageRequest(url: item.image, target: $0, contentMode: .crop) } }
    let results = await pipeline.prefetch(requests)
    for (request, result) in zip(requests, results) {
        guard case .widget(let family, let device) = request.target else { continue }
        let name = "\(request.url.lastPathComponent) on \(device.name) \(family.rawValue)"
        switch result {
        case .success(let response):
            print("  \(name): \(response.pixelSize) px (\(response.pointSize) pt @\(Int(response.scale))x), "
                + response.cacheOutcome.rawValue)
        case .failure(let error):
            print("  \(name): failed: \(error)")
        }
    }
}

for number in 1...max(1, polls) {
    do { try await poll(number) } catch { print("poll \(number): failed: \(error)") }
    if number < polls { try? await Task.sleep(for: .milliseconds(Int(interval * 1000))) }
}
await pipeline.shutdown()
