import Dispatch
import Foundation
import ImgCache

// One 12 MP JPEG prepared for every phone widget size (every iPhone in the catalogue x small,
// medium and large that it has) through the pipeline and a new disk cache each run: in one call,
// which downloads and decodes the original once per DCT scale, against the same requests one at a
// time. Both read the original from a file URL once and store every variant (JPEG, quality 85).
extension Scenario {
    static let widgets: [Scenario] = [everyPhoneWidget(oneCall: true), everyPhoneWidget(oneCall: false)]

    private static func everyPhoneWidget(oneCall: Bool) -> Scenario {
        let runs = Counter()
        let name = "jpeg-4000x3000-every-phone-widget-" + (oneCall ? "one-call" : "one-at-a-time")
        return Scenario(name: name, input: "photo-4000x3000.jpg") { path in
            let pipeline = try Untimed.run { try newPipeline("\(name)-\(runs.next())") }
            defer { Untimed.run { try? wait { await pipeline.shutdown() } } }
            let requests = phoneWidgetRequests(URL(fileURLWithPath: path))
            let prepared: [ImageSummary]
            if oneCall {
                prepared = try wait { await pipeline.prefetch(requests) }.map { try $0.get() }
            } else {
                prepared = try requests.map { request in try wait { try await pipeline.prepare(request) } }
            }
            guard prepared.count == requests.count, prepared.allSatisfy({ $0.cacheOutcome != .memory }) else {
                throw ImgCacheError.invalidArgument("prepared \(prepared.count) of \(requests.count) widget sizes")
            }
        }
    }

    /// A crop request for every widget family an iPhone has a size for.
    private static func phoneWidgetRequests(_ url: URL) -> [ImageRequest] {
        DeviceCatalog.devices.filter { $0.kind == .iPhone }.flatMap { device in
            [WidgetFamily.small, .medium, .large].filter { device.widgetSizes[$0] != nil }.map {
                ImageRequest(url: url, target: .widget($0, device: device), contentMode: .crop)
            }
        }
    }

    /// A pipeline without a memory cache that reads file URLs, its disk cache in a new benchmark
    /// folder named `folder`, created untimed by the caller.
    static func newPipeline(_ folder: String) throws -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(memoryCacheLimit: 0)
        configuration.loading.allowsFileURLs = true
        configuration.diskCache.root = try benchmarkFolder(folder)
        return try ImagePipeline(configuration: configuration)
    }

    /// The result of async `work`, waited for on this thread.
    static func wait<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Value, any Error>?
        Task {
            do { result = .success(try await work()) } catch { result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try result!.get()
    }
}
