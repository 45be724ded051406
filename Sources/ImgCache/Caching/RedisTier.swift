import Foundation
import Synchronization

/// The shared Redis tier: originals and variants framed as `RedisCacheValue`s under
/// `imgcache:o:<md5 of the key>` and `imgcache:v:<md5 of the key>`, download leases under
/// `imgcache:lease:<md5>`, and the counters of every instance in the hash `imgcache:stats`.
///
/// Every method blocks for at most the configured time-outs (run it on a blocking thread) and
/// never throws: Redis being down, slow, full (`-OOM`) or read-only (`-READONLY`) makes a lookup
/// a miss and a write a no-op, counted in `errors`.
public final class RedisTier: Sendable {
    public let configuration: RedisConfiguration
    private let client: RedisClient
    /// This instance's counters, and the part of them not yet added to `imgcache:stats` (sent
    /// with the next command that reaches Redis, or by `flushCounters()`).
    private let counts = Mutex((local: RedisTierCounters(), unsent: RedisTierCounters()))

    static let statsKey = "imgcache:stats"
    /// Deletes the lease only if it still holds this instance's token (it may have expired and
    /// been taken by another instance meanwhile).
    static let releaseScript = "if redis.call('get',KEYS[1])==ARGV[1] then return redis.call('del',KEYS[1]) else return 0 end"
    /// Gives the lease a new TTL (ARGV[2] ms) only if it still holds this instance's token.
    static let renewScript = "if redis.call('get',KEYS[1])==ARGV[1] then return redis.call('pexpire',KEYS[1],ARGV[2]) else return 0 end"

    /// A tier on `configuration`'s server; `log` receives one warning per outage. Connects lazily.
    public init(configuration: RedisConfiguration, log: (@Sendable (String) -> Void)? = nil) {
        self.configuration = configuration
        client = RedisClient(configuration: configuration, log: log)
    }

    /// Adds the counters not yet sent to `imgcache:stats` now; when Redis cannot be reached they
    /// wait for the next command that reaches it.
    public func flushCounters() {
        _ = run([])
    }

    /// This instance's counters since it was made.
    public var counters: RedisTierCounters { counts.withLock { $0.local } }

    /// The counters of every instance that used this Redis (the `imgcache:stats` hash), nil when
    /// Redis cannot be reached.
    public func sharedCounters() -> RedisTierCounters? {
        guard case .array(let items)? = run([Self.command("HGETALL", Self.statsKey)])?.first else { return nil }
        var pairs: [String: Int] = [:]
        for index in stride(from: 0, to: items.count - 1, by: 2) {
            guard case .bytes(let name) = items[index], case .bytes(let value) = items[index + 1] else { continue }
            pairs[String(decoding: name, as: UTF8.self)] = Int(String(decoding: value, as: UTF8.self))
        }
        return RedisTierCounters(hash: pairs)
    }

    static func originalKey(_ cacheKey: String) -> String { "imgcache:o:" + CacheKey.hashedName(for: cacheKey) }
    static func variantKey(_ cacheKey: String) -> String { "imgcache:v:" + CacheKey.hashedName(for: cacheKey) }
    /// The Redis key of an original's or a variant's cache key.
    static func redisKey(_ cacheKey: String) -> String {
        CacheKey.isVariantKey(cacheKey) ? variantKey(cacheKey) : originalKey(cacheKey)
    }
    static func leaseKey(_ redisKey: String) -> String { "imgcache:lease:" + redisKey.split(separator: ":").last! }

    /// The value under `key` when it decodes; nil when absent, damaged, over `maxValueBytes` or
    /// unreachable.
    func value(for key: String) -> RedisCacheValue? {
        guard let reply = run([boundedRead(key)])?.first else { return nil }
        switch reply {
        case .bytes(let frame):
            let value = RedisCacheValue(decoding: frame)
            count { value == nil || value!.isExpired() ? $0.misses += 1 : ($0.hits += 1) }
            return value
        case .null:
            count { $0.misses += 1 }
        default:
            count { $0.errors += 1 }
        }
        return nil
    }

    /// Writes `value` under `key` to live until its expiry plus the grace period (the grace
    /// period alone when it never expires); not when its frame is over `maxValueBytes` or it
    /// would live no time at all. True when Redis took it.
    @discardableResult
    func store(_ value: RedisCacheValue, for key: String) -> Bool {
        let lifetime = (value.expiresAt?.timeIntervalSinceNow ?? 0) + configuration.gracePeriod
        let milliseconds = Int((lifetime * 1000).rounded(.down))
        guard milliseconds > 0, value.payload.count < configuration.maxValueBytes, let frame = value.encoded(),
              frame.count <= configuration.maxValueBytes
        else { return false }
        let command = [Data("SET".utf8), Data(key.utf8), frame, Data("PX".utf8), Data(String(milliseconds).utf8)]
        guard let reply = run([command])?.first else { return false }
        let stored = reply == .status("OK")
        count { stored ? $0.stores += 1 : ($0.errors += 1) }
        return stored
    }

    /// Deletes the value under `key`.
    func remove(_ key: String) {
        guard let reply = run([Self.command("DEL", key)])?.first else { return }
        if case .integer = reply { return }
        count { $0.errors += 1 }
    }

    /// Takes the lease for `key` (SET NX with the lease TTL, under a random token) and reads the
    /// value under `key` again in the same round trip: a leaseholder stores its value before it
    /// releases the lease, so a lease taken just after a release comes with the value stored by
    /// it. These reads are not counted as lookups (the first lookup was).
    func acquireLease(for key: String) -> (attempt: LeaseAttempt, value: RedisCacheValue?) {
        let token = UUID().uuidString
        let milliseconds = String(Int(configuration.leaseTTL * 1000))
        let commands = [Self.command("SET", Self.leaseKey(key), token, "NX", "PX", milliseconds), boundedRead(key)]
        guard let replies = run(commands) else { return (.unavailable, nil) }
        var value: RedisCacheValue?
        if case .bytes(let frame) = replies[1] { value = RedisCacheValue(decoding: frame) }
        switch replies[0] {
        case .status("OK"): return (.acquired(token: token), value)
        case .null: return (.held, value)
        default:
            count { $0.errors += 1 }
            return (.unavailable, value)
        }
    }

    /// Releases the lease for `key` if it still holds `token` (compare and delete, atomically).
    func releaseLease(for key: String, token: String) {
        guard let reply = run([Self.command("EVAL", Self.releaseScript, "1", Self.leaseKey(key), token)])?.first else { return }
        if case .integer = reply { return }
        count { $0.errors += 1 }
    }

    /// Runs `commands` with the unsent counters added to `imgcache:stats` in the same round trip;
    /// returns the replies to `commands`, nil when Redis was not reached (the counters stay
    /// unsent, and the failure is counted as an error: callers count only wrong replies).
    private func run(_ commands: [[Data]]) -> [RedisReply]? {
        let unsent = counts.withLock { counts in
            defer { counts.unsent = RedisTierCounters() }
            return counts.unsent
        }
        let increments = unsent.fields.filter { $0.1 != 0 }.map { Self.command("HINCRBY", Self.statsKey, $0.0, String($0.1)) }
        guard !commands.isEmpty || !increments.isEmpty else { return [] }
        guard let replies = client.run(commands + increments) else {
            counts.withLock { counts in
                counts.unsent = counts.unsent + unsent
                if !commands.isEmpty {
                    counts.local.errors += 1
                    counts.unsent.errors += 1
                }
            }
            return nil
        }
        return Array(replies.prefix(commands.count))
    }

    /// Adds to this instance's counters, and to those still to send.
    private func count(_ change: (inout RedisTierCounters) -> Void) {
        counts.withLock { counts in
            change(&counts.local)
            change(&counts.unsent)
        }
    }

    private static func command(_ words: String...) -> [Data] { words.map { Data($0.utf8) } }

    /// Reads the value under `key`, at most one byte over `maxValueBytes` of it (a longer value,
    /// which this tier never writes, then fails its length check): whatever a server holds, a
    /// read allocates no more. An absent key reads as empty, which decodes to nothing.
    private func boundedRead(_ key: String) -> [Data] {
        Self.command("GETRANGE", key, "0", String(configuration.maxValueBytes))
    }
}

extension RedisTier: CacheLeasing {
    public var isShared: Bool { true }

    /// The value under `key`'s Redis key when it decodes; nil when absent, damaged, over
    /// `maxValueBytes` or unreachable.
    public func cachedData(for key: String) -> CachedData? {
        value(for: Self.redisKey(key)).map(CachedData.init(redisValue:))
    }

    /// Writes the bytes and their metadata (see `store(_:for:)`); returns them as given when Redis
    /// took them, nil otherwise.
    @discardableResult
    public func storeData(_ data: CachedData, for key: String, kind: CacheEntry.Kind) -> CachedData? {
        guard data.byteCount < configuration.maxValueBytes, let bytes = try? data.data() else { return nil }
        let value = RedisCacheValue(
            payload: bytes, contentType: data.contentType, etag: data.etag, lastModified: data.lastModified,
            expiresAt: data.expiresAt)
        return store(value, for: Self.redisKey(key)) ? data : nil
    }

    public func removeData(for key: String) {
        remove(Self.redisKey(key))
    }

    var leaseTiming: LeaseTiming {
        LeaseTiming(
            ttl: configuration.leaseTTL, pollStart: configuration.leasePollStart, pollMax: configuration.leasePollMax,
            waitLimit: configuration.leaseWaitLimit)
    }

    func acquireLease(forCacheKey key: String) -> (attempt: LeaseAttempt, found: CachedData?) {
        let (attempt, value) = acquireLease(for: Self.redisKey(key))
        return (attempt, value.map(CachedData.init(redisValue:)))
    }

    func releaseLease(forCacheKey key: String, token: String) {
        releaseLease(for: Self.redisKey(key), token: token)
    }

    func renewLease(forCacheKey key: String, token: String) -> Bool {
        let milliseconds = String(Int(configuration.leaseTTL * 1000))
        let command = Self.command("EVAL", Self.renewScript, "1", Self.leaseKey(Self.redisKey(key)), token, milliseconds)
        guard let reply = run([command])?.first else { return false }
        guard case .integer(let renewed) = reply else {
            count { $0.errors += 1 }
            return false
        }
        return renewed == 1
    }
}

extension CachedData {
    /// A value read from Redis, its payload in memory.
    init(redisValue value: RedisCacheValue) {
        self.init(
            data: value.payload, contentType: value.contentType, etag: value.etag, lastModified: value.lastModified,
            expiresAt: value.expiresAt)
    }
}
