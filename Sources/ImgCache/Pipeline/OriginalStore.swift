import Foundation

/// What an original is wanted for: its URL and key, how the request fetches and stores it, and
/// whether its bytes must be an image.
struct OriginalRequest: Sendable {
    let url: URL
    /// The original's cache key (see `RequestPlan.originalKey`).
    let key: String
    let headers: [String: String]
    let policy: ImageRequest.CachePolicy
    let storage: ImageRequest.StoragePolicy
    /// True when bytes that start like no image format are refused (`unsupportedFormat`) before
    /// they are stored or taken from a shared tier; false for `ImagePipeline.data(for:)`.
    let requiresImage: Bool

    /// What requests for the same original share one fetch by: the key, the policies and whether
    /// the bytes must be an image.
    var coalescingKey: String { "\(key) \(policy.rawValue) \(storage.rawValue) \(requiresImage ? "image" : "data")" }

    /// This request with the policy `.reload`: from the origin, whatever the caches hold.
    var reloading: OriginalRequest {
        OriginalRequest(url: url, key: key, headers: headers, policy: .reload, storage: storage, requiresImage: requiresImage)
    }

    /// Throws `unsupportedFormat` when an image is required and `data` does not start like one.
    func check(_ data: Data) throws {
        if requiresImage { _ = try ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)) }
    }
}

/// An original ready to decode: its bytes and how they were obtained.
struct OriginalFetch: Sendable {
    /// The bytes (the stored file held open, or in memory) and their metadata.
    let copy: CachedData
    /// True when the original is in the disk cache, so that its stored variants were made from
    /// these bytes when `changed` is false.
    let isStored: Bool
    /// False when nothing made from it may be stored: the server said no-store, or the request's
    /// storage policy is `.none`.
    let storesVariants: Bool
    /// `.disk` (fresh in the cache), `.shared` (from a shared tier), `.revalidated` (304) or
    /// `.network` (downloaded).
    let outcome: CacheOutcome
    /// True when the bytes differ from the copy stored before (or there was none).
    let changed: Bool
}

/// Finds or fetches originals: the disk cache first, then the shared tiers in order (taking a
/// lease on a leasing tier's miss, so that one instance of a fleet downloads), then the origin,
/// conditionally when a stale copy has validators. What arrives is stored as the request's
/// storage policy and the server's freshness allow: on the disk (a download written to the
/// cache's tmp/ as it arrived is moved into place) and in the shared tiers.
struct OriginalStore: Sendable {
    let disk: DiskCache
    /// The tiers after the disk, in lookup order (Redis, then any of the configuration's).
    let shared: SharedTiers
    let loader: any DataLoading
    let loads: AsyncLimiter
    let blocking: BlockingPool
    let leases: FleetLeases
    let metrics: PipelineMetrics

    /// A stale copy kept for revalidation, and whether it is the disk cache's.
    private struct StaleCopy {
        let copy: CachedData
        let isLocal: Bool
    }

    /// The original `request` asks for. `.cacheOnly` never goes to the network (`notCached` on a
    /// miss); `.reload` revalidates whatever is stored, fresh or not.
    func fetch(_ request: OriginalRequest, context: WorkContext) async throws -> OriginalFetch {
        let key = request.key
        var stale: StaleCopy?
        if let stored = try await blocking.run({ [disk] in try disk.cachedData(for: key) }) {
            if request.policy == .cacheOnly || (request.policy == .useCache && !stored.isExpired()) {
                return OriginalFetch(copy: stored, isStored: true, storesVariants: true, outcome: .disk, changed: false)
            }
            stale = StaleCopy(copy: stored, isLocal: true)
        }
        var lease: HeldLease?
        do {
            for tier in shared.tiers(for: request.url) {
                let found: CachedData?
                if let leasing = tier as? any CacheLeasing, request.policy == .useCache, lease == nil {
                    (found, lease) = await leases.lookup(key, in: leasing)
                } else {
                    found = await shared.lookup(key, in: tier)
                }
                guard let found else { continue }
                guard (try? request.check(found.data())) != nil else {
                    // Not an image: no instance should take it again.
                    await shared.remove(key, ifHolding: found, from: [tier])
                    continue
                }
                if request.policy == .cacheOnly || (request.policy == .useCache && !found.isExpired()) {
                    let fetch = try await adopt(found, replacing: stale, for: request)
                    await leases.release(lease)
                    return fetch
                }
                if stale == nil { stale = StaleCopy(copy: found, isLocal: false) }
            }
            guard request.policy != .cacheOnly else { throw ImgCacheError.notCached(key: key) }
            let fetch = try await download(request, stale: stale, context: context)
            await leases.release(lease)
            return fetch
        } catch {
            await leases.release(lease)
            throw error
        }
    }

    /// A copy from a shared tier, stored on the disk (replacing the stale local copy, and the
    /// variants made from it, when the bytes differ) when the storage policy keeps originals;
    /// outcome `.shared`.
    private func adopt(_ found: CachedData, replacing stale: StaleCopy?, for request: OriginalRequest) async throws
        -> OriginalFetch
    {
        let local = stale?.isLocal == true ? stale?.copy : nil
        let (disk, key) = (self.disk, request.key)
        return try await blocking.run {
            let changed = try local.map { try !$0.hasSameBytes(as: found) } ?? true
            if local != nil && changed { try disk.removeData(for: key) }
            let stored = request.storage == .all ? try disk.storeData(found, for: key, kind: .original) : nil
            return OriginalFetch(
                copy: stored ?? found, isStored: stored != nil, storesVariants: request.storage != .none, outcome: .shared,
                changed: changed)
        }
    }

    /// Past the caches: a conditional request when there is a stale copy with validators, else a
    /// download; what arrives is stored as the policies allow.
    private func download(_ request: OriginalRequest, stale: StaleCopy?, context: WorkContext) async throws -> OriginalFetch {
        let validators = HTTPValidators(etag: stale?.copy.etag, lastModified: stale?.copy.lastModified)
        let metrics = self.metrics
        let dataRequest = DataRequest(url: request.url, validators: validators, headers: request.headers) { event in
            switch event {
            case .attemptStarted, .redirected: metrics.originRequestSent()
            case .progress(let received, let expected): context.reportProgress(received: received, expected: expected)
            }
        }
        let loader = self.loader
        let queued = DispatchTime.now()
        let response = try await loads.run(context: context) {
            let started = DispatchTime.now()
            metrics.observe(.downloadQueue, seconds: ImagePipeline.seconds(from: queued, to: started))
            defer { metrics.observe(.download, seconds: ImagePipeline.seconds(since: started)) }
            return try await loader.load(dataRequest)
        }
        metrics.downloaded(bytes: response.data.count)
        // A body in a file not moved into the cache goes when this fetch ends (its mapped bytes
        // stay readable), not whenever the last reference to the response does.
        defer { response.spilledBody?.removeFile() }
        if response.isNotModified {
            guard let stale else {
                throw ImgCacheError.network(url: request.key, detail: "304 Not Modified to a request without validators")
            }
            return try await revalidated(stale, by: response, for: request)
        }
        try request.check(response.data)
        let metadata = CachedData(
            data: response.data, contentType: response.contentType, etag: response.validators.etag,
            lastModified: response.validators.lastModified, expiresAt: response.freshness.expires)
        let allowed = !response.freshness.isNoStore
        // Bytes the disk could never hold (over its whole size limit) are served without storing.
        let keeps = allowed && request.storage == .all && response.data.count <= disk.configuration.sizeLimit
        let (disk, key) = (self.disk, request.key)
        let local = stale?.isLocal == true ? stale?.copy : nil
        let (changed, stored) = try await blocking.run { () -> (Bool, CachedData?) in
            let changed = try !Self.holds(local, response)
            // New bytes, or none to keep: the stored copy and the variants made from it go.
            if local != nil && (changed || (!keeps && request.storage == .all)) { try disk.removeData(for: key) }
            guard keeps else { return (changed, nil) }
            if let spilled = response.spilledBody, Self.isFile(spilled.path, in: disk.temporaryFolder) {
                // Written to the cache's tmp/ as it arrived: moved into place, not copied.
                let stored = try disk.storeData(
                    movingFileAt: spilled.path, byteCount: spilled.byteCount, metadata: metadata, for: key)
                spilled.handOver()
                return (changed, stored)
            }
            return (changed, try disk.storeData(metadata, for: key, kind: .original))
        }
        if allowed && request.storage == .all {
            await shared.store(metadata, for: key, kind: .original, from: request.url)
        }
        // Read from the stored file, held open; from the downloaded bytes if a sweep already took it.
        return OriginalFetch(
            copy: stored ?? metadata, isStored: stored != nil, storesVariants: allowed && request.storage != .none,
            outcome: .network, changed: changed)
    }

    /// A 304 for `stale`: its new expiry and validators recorded on the disk (a copy from a shared
    /// tier is stored there first, when originals are kept) and in the shared tiers.
    private func revalidated(_ stale: StaleCopy, by response: DataResponse, for request: OriginalRequest) async throws
        -> OriginalFetch
    {
        let fresh = CachedData(
            data: Data(), contentType: nil, etag: response.validators.etag,
            lastModified: response.validators.lastModified, expiresAt: response.freshness.expires)
        let renewed = stale.copy.withMetadata(of: fresh)
        let (disk, key) = (self.disk, request.key)
        let stored = try await blocking.run { () -> CachedData? in
            if stale.isLocal { return try disk.refreshData(renewed, for: key, kind: .original) }
            return request.storage == .all ? try disk.storeData(renewed, for: key, kind: .original) : nil
        }
        if request.storage == .all { await shared.refresh(renewed, for: key, kind: .original, from: request.url) }
        return OriginalFetch(
            copy: stored ?? renewed, isStored: stored != nil, storesVariants: request.storage != .none,
            outcome: .revalidated, changed: false)
    }

    /// True when the stored copy `local` holds exactly the downloaded bytes (sizes compared
    /// first; a body written to a file is compared file to file); false when there is none.
    static func holds(_ local: CachedData?, _ response: DataResponse) throws -> Bool {
        guard let local, let file = local.file, local.byteCount == response.data.count else { return false }
        if let spilled = response.spilledBody { return try file.hasSameBytes(asFileAt: spilled.path) }
        return try file.read() == response.data
    }

    /// True when `path` names a file directly in `folder`.
    private static func isFile(_ path: String, in folder: URL) -> Bool {
        URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path
    }
}
