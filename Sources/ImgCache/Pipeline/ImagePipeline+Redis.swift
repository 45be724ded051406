import Foundation

extension ImagePipeline {
    /// The Redis tier for originals and variants of `url`: none for a local file, whose path
    /// means nothing on another host.
    func redisTier(for url: URL) -> RedisTier? {
        url.isFileURL ? nil : redis
    }

    /// What the Redis tier holds under `redisKey` (an original's or a variant's): its value
    /// (fresh or stale), and the lease token when this instance is to download or render it.
    ///
    /// Without a fresh value this instance takes the lease; when another instance holds it, this
    /// one tries again after 10 ms, then 20, 40... up to 200 ms apart (`leasePollStart`,
    /// `leasePollMax`), each try reading the value too, until the value is there, the lease is
    /// free (its holder released it without a value, or died and it expired), or `leaseTTL` has
    /// passed. Then, or as soon as Redis cannot answer, it goes ahead: a dead leaseholder blocks
    /// nobody for longer than the lease TTL.
    func sharedValue(_ redisKey: String, _ redis: RedisTier) async -> (value: RedisCacheValue?, lease: String?) {
        let configuration = redis.configuration
        let deadline = Date().addingTimeInterval(configuration.leaseTTL)
        var pause = configuration.leasePollStart
        // A cancelled task gets nil from `blocking.run`, hence a miss and `.unavailable`: it stops.
        var value = try? await blocking.run { redis.value(for: redisKey) }
        while true {
            if let value, !value.isExpired() { return (value, nil) }
            let (attempt, found) = (try? await blocking.run { redis.acquireLease(for: redisKey) }) ?? (.unavailable, nil)
            value = found ?? value
            switch attempt {
            case .acquired(let token):
                guard let value, !value.isExpired() else { return (value, token) }
                await releaseLease(redisKey, token, redis)
                return (value, nil)
            case .unavailable: return (value, nil)
            case .held:
                if let value, !value.isExpired() { return (value, nil) }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return (value, nil) }
                try? await Task.sleep(for: .seconds(min(pause, left)))
                pause = min(pause * 2, configuration.leasePollMax)
            }
        }
    }

    /// Releases a lease taken by `sharedValue`, even when the caller was cancelled meanwhile.
    func releaseLease(_ redisKey: String, _ token: String, _ redis: RedisTier) async {
        let blocking = self.blocking
        await Task { _ = try? await blocking.run { redis.releaseLease(for: redisKey, token: token) } }.value
    }

    /// An original from Redis stored in the disk cache (replacing the stored copy, and the
    /// variants rendered from it, when the bytes differ) and held open; outcome `.shared`.
    /// Bytes over the disk cache's whole size limit are served without storing.
    func adopt(_ value: RedisCacheValue, _ key: String, _ stored: CacheEntry?, _ opened: OpenedFile?) async throws
        -> OriginalFetch
    {
        let diskCache = self.diskCache
        return try await blocking.run {
            let changed = try stored == nil || opened?.read() != value.payload
            if stored != nil && changed { _ = try diskCache.remove(key: key, cascadeVariants: true) }
            guard value.payload.count <= diskCache.configuration.sizeLimit else {
                return OriginalFetch(
                    source: .data(value.payload), file: nil, entry: nil, expiresAt: value.expiresAt, outcome: .shared,
                    changed: changed)
            }
            let entry = try diskCache.store(
                value.payload, for: key, kind: .original, contentType: value.contentType, etag: value.etag,
                lastModified: value.lastModified, expiresAt: value.expiresAt)
            let file = OpenedFile(entry.fileURL)
            return OriginalFetch(
                source: file?.source ?? .data(value.payload), file: file, entry: entry, expiresAt: value.expiresAt,
                outcome: .shared, changed: changed)
        }
    }

    /// Writes `bytes` to Redis under `redisKey` with the metadata of their disk cache `entry`.
    func share(_ bytes: Data, _ entry: CacheEntry, under redisKey: String, _ redis: RedisTier) async {
        let value = RedisCacheValue(
            payload: bytes, contentType: entry.contentType, etag: entry.etag, lastModified: entry.lastModified,
            expiresAt: entry.expiresAt)
        _ = try? await blocking.run { redis.store(value, for: redisKey) }
    }

    /// A fresh variant from Redis stored in the disk cache (linked to its original) and described
    /// from its headers, outcome `.shared`; nil when it is not an image or cannot be stored.
    func adoptVariant(_ value: RedisCacheValue, _ plan: Plan) async -> PreparedVariant? {
        let diskCache = self.diskCache
        let adopted = try? await blocking.run { () -> PreparedVariant? in
            guard value.payload.count <= diskCache.configuration.sizeLimit,
                  let format = try? ImageFormat.sniff(value.payload.prefix(ImageFormat.signatureLength)),
                  let entry = try? diskCache.store(
                      value.payload, for: plan.variantKey, kind: .variant(of: plan.originalKey), format: format,
                      contentType: value.contentType, expiresAt: value.expiresAt)
            else { return nil }
            return try? PreparedVariant.stored(entry, outcome: .shared)
        }
        return adopted ?? nil
    }
}
