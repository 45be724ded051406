import Foundation
import Synchronization
@testable import ImgCache

/// A `DataLoading` double serving bytes from a table, counting loads, answering conditional
/// requests with 304 when the stored ETag matches, and optionally taking its time or holding each
/// load until the test opens a gate.
final class CountingLoader: DataLoading {
    struct Resource {
        var data: Data
        var etag: String?
        var maxAge: TimeInterval = 3600
        var noStore = false
    }

    private struct State {
        var resources: [URL: Resource] = [:]
        var loads = 0
        var requests: [DataRequest] = []
        var conditionalLoads = 0
        var notModified = 0
        var cancelledLoads = 0
    }

    private let state = Mutex(State())
    private let delay: Duration
    private let gate: Gate?

    init(delay: Duration = .zero, gate: Gate? = nil) {
        self.delay = delay
        self.gate = gate
    }

    func serve(_ url: URL, _ resource: Resource) {
        state.withLock { $0.resources[url] = resource }
    }

    var loads: Int { state.withLock { $0.loads } }
    /// Every request loaded, in order.
    var requests: [DataRequest] { state.withLock { $0.requests } }
    var conditionalLoads: Int { state.withLock { $0.conditionalLoads } }
    var notModified: Int { state.withLock { $0.notModified } }
    /// Loads cancelled while they took their time.
    var cancelledLoads: Int { state.withLock { $0.cancelledLoads } }

    func load(_ request: DataRequest) async throws -> DataResponse {
        let resource = state.withLock { state -> Resource? in
            state.loads += 1
            state.requests.append(request)
            if !request.validators.isEmpty { state.conditionalLoads += 1 }
            return state.resources[request.url]
        }
        try await gate?.wait()
        if delay > .zero {
            do {
                try await Task.sleep(for: delay)
            } catch {
                state.withLock { $0.cancelledLoads += 1 }
                throw error
            }
        }
        try Task.checkCancellation()
        guard let resource else { throw ImgCacheError.httpStatus(code: 404, url: request.url.absoluteString) }
        let freshness = HTTPFreshness(
            expires: Date().addingTimeInterval(resource.noStore ? 0 : resource.maxAge), isNoStore: resource.noStore)
        if let etag = resource.etag, request.validators.etag == etag {
            state.withLock { $0.notModified += 1 }
            return DataResponse(
                url: request.url, statusCode: 304, data: Data(), validators: HTTPValidators(etag: etag), freshness: freshness)
        }
        return DataResponse(
            url: request.url, statusCode: 200, data: resource.data, contentType: "application/octet-stream",
            validators: HTTPValidators(etag: resource.etag), freshness: freshness)
    }
}

extension CountingLoader {
    /// A pipeline loading through this loader, its disk cache in `root` without syncing writes.
    func pipeline(root: URL) throws -> ImagePipeline {
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        return try ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: self, diskCache: disk))
    }
}
