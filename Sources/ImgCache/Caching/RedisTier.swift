import Foundation
import Synchronization

/// The shared Redis tier: originals and variants framed as `RedisCacheValue`s under
/// `imgcache:o:{<md5 of the key>}` and `imgcache:v:{<md5 of the key>}`, download leases under
/// `imgcache:lease:{<md5>}` (the hash tag in braces puts every key of one cache key in one hash
/// slot of a cluster, so that each round trip touches one slot; while the master of that slot
/// is down, a stand-in tag, see `RedisClusterRouter.hashTag(for:)`), and the counters of every
/// instance in the hash `imgcache:stats`, split into shards (see `statsKey(shard:)`).
///
/// Every method blocks for at most the configured time-outs (run it on a blocking thread) and
/// never throws: Redis being down, slow, full (`-OOM`) or read-only (`-READONLY`) makes a lookup
/// a miss and a write a no-op, counted in `errors`.
///
/// A value's freshness travels as its key's TTL: the writer sets the TTL to the freshness left
/// by its own clock plus the grace period, and a reader takes the key's remaining PTTL (read in
/// the same transaction as the value) less that grace, so that instances whose wall clocks
/// differ agree on it. With `RedisConfiguration.secret`, every value is authenticated.
public final class RedisTier: Sendable {
    /// The configuration the tier was made with, as given (an invalid one leaves the tier without
    /// Redis).
    public let configuration: RedisConfiguration
    /// Nil when the configuration is invalid: the tier then serves without Redis.
    private let routing: (any RedisCommandRouting)?
    private let seal: RedisValueSeal
    /// This instance's wall clock, for the freshness left of what it stores and reads.
    private let now: @Sendable () -> Date
    /// This instance's counters, and the part of them not yet added to `imgcache:stats` (see
    /// `run(_:slotKey:)`).
    private let counts = Mutex((local: RedisTierCounters(), unsent: RedisTierCounters()))
    /// When the chores of `doChoresIfDue` were last done (uptime nanoseconds), and the leases
    /// whose release did not reach Redis, with when they expire (uptime nanoseconds).
    private let chores = Mutex((doneAt: UInt64(0), unreleased: [(keys: Keys, token: String, expiresAt: UInt64)]()))

    /// The shards of the counters' hash: each increment goes to one chosen at random, so that no
    /// single node of a cluster takes every counter write, and `sharedCounters()` adds them up.
    static let statsShardCount = 16
    /// The longest a tier keeps its chores after a round trip reached Redis: on a cluster its
    /// counters, sent in a round trip of their own (on one server they go with every command),
    /// and the releases that could not reach Redis (see `releaseLease`).
    static let choreInterval: TimeInterval = 1
    /// The most releases kept to try again.
    static let unreleasedLimit = 256

    /// The hash of counter shard `shard` (0 to `statsShardCount - 1`): `imgcache:stats:{<shard>}`.
    static func statsKey(shard: Int) -> String { "imgcache:stats:{\(shard)}" }
    /// Deletes the lease only if it still holds this instance's token (it may have expired and
    /// been taken by another instance meanwhile).
    static let releaseScript = "if redis.call('get',KEYS[1])==ARGV[1] then return redis.call('del',KEYS[1]) else return 0 end"
    /// Gives the lease a new TTL (ARGV[2] milliseconds) only if it still holds this instance's token.
    static let renewScript =
        "if redis.call('get',KEYS[1])==ARGV[1] then return redis.call('pexpire',KEYS[1],ARGV[2]) else return 0 end"
    /// Deletes the value only if its frame still starts with the header ARGV[3] (magic, version,
    /// check and payload length) and holds the payload ARGV[1] just before its tag of ARGV[2] bytes.
    static let removeIfHoldingScript = """
        local v = redis.call('get', KEYS[1])
        local n, t = #ARGV[1], tonumber(ARGV[2])
        if v and #v >= #ARGV[3] + n + t and string.sub(v, 1, #ARGV[3]) == ARGV[3]
            and string.sub(v, #v - t - n + 1, #v - t) == ARGV[1] then return redis.call('del', KEYS[1]) end
        return 0
        """

    /// The Redis keys of one cache key: its value's and its lease's, in one hash slot.
    struct Keys: Sendable, Equatable {
        /// `imgcache:o:{<tag>}` for an original's key, `imgcache:v:{<tag>}` for a variant's.
        let value: String
        /// `imgcache:lease:{<tag>}`.
        let lease: String

        /// The keys under the cache key's own hash tag, the MD5 of the cache key.
        init(cacheKey: String) {
            self.init(cacheKey: cacheKey, hashTag: CacheKey.hashedName(for: cacheKey))
        }

        init(cacheKey: String, hashTag: String) {
            let tag = "{" + hashTag + "}"
            value = (CacheKey.isVariantKey(cacheKey) ? "imgcache:v:" : "imgcache:o:") + tag
            lease = "imgcache:lease:" + tag
        }
    }

    /// The keys of `cacheKey` where the routing places them now (see
    /// `RedisCommandRouting.hashTag(for:)`).
    func keys(for cacheKey: String) -> Keys {
        let tag = CacheKey.hashedName(for: cacheKey)
        return Keys(cacheKey: cacheKey, hashTag: routing?.hashTag(for: tag) ?? tag)
    }

    /// A tier on `configuration`'s server; `log` receives one warning per outage. Connects lazily;
    /// a host name is resolved from now on, in the background. A configuration that fails
    /// `RedisConfiguration.validate()` makes a tier that serves without Redis (every lookup a
    /// miss, every call counted in `errors`), with one warning naming the setting.
    public convenience init(configuration: RedisConfiguration, log: (@Sendable (String) -> Void)? = nil) {
        self.init(configuration: configuration, log: log, now: { Date() })
    }

    /// A tier whose wall clock is `now` (a test's skewed clock).
    init(configuration: RedisConfiguration, log: (@Sendable (String) -> Void)?, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.now = now
        seal = RedisValueSeal(secret: configuration.secret)
        do {
            try configuration.validate()
            routing = configuration.makeRouting(log: log)
        } catch {
            log?("warning: Redis at \(configuration.displayURL) is not used: \(error)")
            routing = nil
        }
    }

    /// Adds the counters not yet sent to `imgcache:stats` now; when Redis cannot be reached they
    /// wait for the next command that reaches it.
    public func flushCounters() {
        sendCounters()
    }

    /// Sends the counters not yet sent, then closes the connections; later calls find nothing
    /// and store nothing, as when Redis is down (without a warning). Blocks for at most the
    /// command time-out.
    public func close() {
        flushCounters()
        routing?.close()
    }

    /// This instance's counters since it was made.
    public var counters: RedisTierCounters { counts.withLock { $0.local } }

    /// True when Redis answers a `PING` within the command time-out (a health check).
    public func answers() -> Bool {
        run([Self.command(["PING"])], slotKey: nil)?.first == .status("PONG")
    }

    /// The counters of every instance that used this Redis (the shards of `imgcache:stats`
    /// added up, their known fields only, so that the replies stay small), nil when Redis cannot
    /// be reached.
    public func sharedCounters() -> RedisTierCounters? {
        var total = RedisTierCounters()
        for shard in 0..<Self.statsShardCount {
            let key = Self.statsKey(shard: shard)
            let command = Self.command(["HMGET", key] + RedisTierCounters.fieldNames)
            guard case .array(let items)? = run([command], slotKey: key)?.first,
                  items.count == RedisTierCounters.fieldNames.count
            else { return nil }
            var pairs: [String: Int] = [:]
            for (name, item) in zip(RedisTierCounters.fieldNames, items) {
                if case .bytes(let value) = item { pairs[name] = Int(String(decoding: value, as: UTF8.self)) }
            }
            total = total + RedisTierCounters(hash: pairs)
        }
        return total
    }

    /// The copy under `keys` when it decodes, with its expiry by this instance's clock; nil when
    /// absent, rejected, over `maxValueBytes` or unreachable. Counted as a hit (fresh), a miss, or
    /// a miss and a rejection.
    func lookup(_ keys: Keys) -> CachedData? {
        guard let replies = run(readCommands(keys), slotKey: keys.value) else { return nil }
        switch read(replies[...], keys: keys) {
        case .found(let data):
            count { data.isExpired(at: now()) ? $0.misses += 1 : ($0.hits += 1) }
            return data
        case .absent:
            count { $0.misses += 1 }
        case .rejected:
            count {
                $0.misses += 1
                $0.rejected += 1
            }
        case .failed:
            count { $0.errors += 1 }
        }
        return nil
    }

    /// Writes `data` under `keys` to live for the freshness it has left by this instance's clock
    /// plus the grace period (the grace period alone when it never expires); not when its frame
    /// is over `maxValueBytes` or it would live no time at all. True when Redis took it.
    @discardableResult
    func store(_ data: CachedData, under keys: Keys) -> Bool {
        let freshness = data.expiresAt.map { $0.timeIntervalSince(now()) }
        let lifetime = ((freshness ?? 0) + configuration.gracePeriod) * 1000
        guard lifetime.isFinite, lifetime >= 1, lifetime < Double(Int64.max), data.byteCount < configuration.maxValueBytes,
              let bytes = try? data.data()
        else { return false }
        let value = RedisCacheValue(
            payload: bytes, contentType: data.contentType, etag: data.etag, lastModified: data.lastModified,
            graceMilliseconds: freshness == nil ? nil : Int64((configuration.gracePeriod * 1000).rounded()))
        guard let frame = value.encoded(key: keys.value, seal: seal), frame.count <= configuration.maxValueBytes else {
            return false
        }
        let command = Self.command(["SET", keys.value]) + [frame] + Self.command(["PX", String(Int64(lifetime.rounded(.down)))])
        guard let reply = run([command], slotKey: keys.value)?.first else { return false }
        let stored = reply == .status("OK")
        count { stored ? $0.stores += 1 : ($0.errors += 1) }
        return stored
    }

    /// Deletes the value under `keys`.
    func remove(_ keys: Keys) {
        guard let reply = run([Self.command(["DEL", keys.value])], slotKey: keys.value)?.first else { return }
        if case .integer = reply { return }
        count { $0.errors += 1 }
    }

    /// Deletes the value under `keys` only if Redis still holds a frame of `payload` (see
    /// `removeIfHoldingScript`). True when it did.
    @discardableResult
    func remove(_ keys: Keys, ifHolding payload: Data) -> Bool {
        guard let header = RedisCacheValue.header(payloadCount: payload.count, seal: seal) else { return false }
        let command = Self.command(["EVAL", Self.removeIfHoldingScript, "1", keys.value]) + [payload]
            + Self.command([String(seal.tagLength)]) + [header]
        guard let reply = run([command], slotKey: keys.value)?.first else { return false }
        guard case .integer(let removed) = reply else {
            count { $0.errors += 1 }
            return false
        }
        return removed == 1
    }

    /// Takes the lease for `keys` (SET NX with the lease TTL, under a random token) and reads the
    /// value again in the same round trip: a leaseholder stores its value before it releases the
    /// lease, so a lease taken just after a release comes with the value stored by it. These reads
    /// are not counted as lookups (the first lookup was); a lease not taken for want of an answer
    /// is counted in `leasesUnavailable`.
    func acquireLease(_ keys: Keys) -> (attempt: LeaseAttempt, found: CachedData?) {
        let token = UUID().uuidString
        let set = Self.command(["SET", keys.lease, token, "NX", "PX", String(Int(configuration.leaseTTL * 1000))])
        guard let replies = run([set] + readCommands(keys), slotKey: keys.value) else {
            count { $0.leasesUnavailable += 1 }
            return (.unavailable, nil)
        }
        var found: CachedData?
        if case .found(let data) = read(replies.dropFirst(), keys: keys) { found = data }
        switch replies[0] {
        case .status("OK"): return (.acquired(token: token), found)
        case .null: return (.held, found)
        default:
            count {
                $0.errors += 1
                $0.leasesUnavailable += 1
            }
            return (.unavailable, found)
        }
    }

    /// Gives the lease for `keys` a whole TTL again if it still holds `token` (atomically).
    func renewLease(_ keys: Keys, token: String) -> Bool {
        let milliseconds = String(Int(configuration.leaseTTL * 1000))
        let command = Self.command(["EVAL", Self.renewScript, "1", keys.lease, token, milliseconds])
        guard let reply = run([command], slotKey: keys.lease)?.first else { return false }
        guard case .integer(let renewed) = reply else {
            count { $0.errors += 1 }
            return false
        }
        return renewed == 1
    }

    /// Releases the lease for `keys` if it still holds `token` (compare and delete, atomically).
    /// A release that cannot reach Redis (its node down) is tried again after a later round trip
    /// that does, while the lease lives: after a failover the promoted replica holds the lease,
    /// and the others would otherwise wait out its TTL for a value that does not come.
    func releaseLease(_ keys: Keys, token: String) {
        guard let reply = run([Self.releaseCommand(keys, token: token)], slotKey: keys.lease)?.first else {
            let expiresAt = DispatchTime.now().uptimeNanoseconds + UInt64(configuration.leaseTTL * 1e9)
            chores.withLock { chores in
                if chores.unreleased.count < Self.unreleasedLimit { chores.unreleased.append((keys, token, expiresAt)) }
            }
            return
        }
        if case .integer = reply { return }
        count { $0.errors += 1 }
    }

    /// What the replies to `readCommands` say.
    private enum Read {
        case found(CachedData)
        case absent
        /// A value that fails its checks, or a key without a TTL (this tier always sets one).
        case rejected
        /// Replies of the wrong shape (an error reply, an aborted transaction).
        case failed
    }

    /// Reads the value under `keys` and its key's remaining TTL in one transaction: at most one
    /// byte over `maxValueBytes` of the value (a longer one, which this tier never writes, then
    /// fails its check), so that whatever a server holds a read allocates no more. An absent key
    /// reads as empty.
    private func readCommands(_ keys: Keys) -> [[Data]] {
        [
            Self.command(["MULTI"]), Self.command(["GETRANGE", keys.value, "0", String(configuration.maxValueBytes)]),
            Self.command(["PTTL", keys.value]), Self.command(["EXEC"]),
        ]
    }

    /// The value in the replies to `readCommands`, its expiry its key's remaining TTL less its grace.
    private func read(_ replies: ArraySlice<RedisReply>, keys: Keys) -> Read {
        guard replies.count == 4, case .array(let items)? = replies.last, items.count == 2,
              case .bytes(let frame) = items[0], case .integer(let milliseconds) = items[1]
        else { return .failed }
        if frame.isEmpty { return .absent }
        guard milliseconds >= 0, let value = RedisCacheValue(decoding: frame, key: keys.value, seal: seal) else {
            return .rejected
        }
        return .found(CachedData(
            data: value.payload, contentType: value.contentType, etag: value.etag, lastModified: value.lastModified,
            expiresAt: value.expiresAt(keyMilliseconds: Int64(milliseconds), now: now())))
    }

    /// Runs `commands` (whose keys share `slotKey`'s hash slot) in one round trip and returns
    /// their replies; nil when Redis was not reached (counted as an error: callers count only
    /// wrong replies). On one server the unsent counters go in the same round trip; on a cluster
    /// they follow in one of their own (see `doChoresIfDue`).
    private func run(_ commands: [[Data]], slotKey: String?) -> [RedisReply]? {
        guard let routing else {
            count { $0.errors += 1 }
            return nil
        }
        let unsent = routing.isSingleServer ? takeUnsentCounters() : RedisTierCounters()
        let increments = Self.increments(unsent, shard: Int.random(in: 0..<Self.statsShardCount))
        guard let replies = routing.run(commands + increments, slotKey: slotKey) else {
            counts.withLock { counts in
                counts.unsent = counts.unsent + unsent
                counts.local.errors += 1
                counts.unsent.errors += 1
            }
            return nil
        }
        doChoresIfDue(routing)
        return Array(replies.prefix(commands.count))
    }

    /// After a round trip reached Redis, once `choreInterval` has passed since the last time:
    /// sends the counters on a cluster, and tries again the releases that did not reach Redis
    /// (those whose lease has not expired yet).
    private func doChoresIfDue(_ routing: any RedisCommandRouting) {
        let now = DispatchTime.now().uptimeNanoseconds
        let unreleased = chores.withLock { chores -> [(keys: Keys, token: String, expiresAt: UInt64)]? in
            guard now >= chores.doneAt + UInt64(Self.choreInterval * 1e9) else { return nil }
            chores.doneAt = now
            defer { chores.unreleased = [] }
            return chores.unreleased.filter { $0.expiresAt > now }
        }
        guard let unreleased else { return }
        if !routing.isSingleServer { sendCounters() }
        let left = unreleased.filter { lease in
            routing.run([Self.releaseCommand(lease.keys, token: lease.token)], slotKey: lease.keys.lease) == nil
        }
        guard !left.isEmpty else { return }
        chores.withLock { chores in chores.unreleased = Array((left + chores.unreleased).prefix(Self.unreleasedLimit)) }
    }

    private static func releaseCommand(_ keys: Keys, token: String) -> [Data] {
        command(["EVAL", releaseScript, "1", keys.lease, token])
    }

    /// Sends the unsent counters to a shard chosen at random in a round trip of their own;
    /// counters that cannot be sent stay unsent.
    private func sendCounters() {
        let unsent = takeUnsentCounters()
        let shard = Int.random(in: 0..<Self.statsShardCount)
        let increments = Self.increments(unsent, shard: shard)
        guard !increments.isEmpty, routing?.run(increments, slotKey: Self.statsKey(shard: shard)) == nil else { return }
        counts.withLock { counts in counts.unsent = counts.unsent + unsent }
    }

    /// The counters not yet sent, which are from now on counted as sent.
    private func takeUnsentCounters() -> RedisTierCounters {
        counts.withLock { counts in
            defer { counts.unsent = RedisTierCounters() }
            return counts.unsent
        }
    }

    /// The HINCRBY commands that add `counters` (those not 0) to counter shard `shard`.
    private static func increments(_ counters: RedisTierCounters, shard: Int) -> [[Data]] {
        counters.fields.filter { $0.1 != 0 }.map { command(["HINCRBY", statsKey(shard: shard), $0.0, String($0.1)]) }
    }

    /// Adds to this instance's counters, and to those still to send.
    private func count(_ change: (inout RedisTierCounters) -> Void) {
        counts.withLock { counts in
            change(&counts.local)
            change(&counts.unsent)
        }
    }

    private static func command(_ words: [String]) -> [Data] { words.map { Data($0.utf8) } }
}

extension RedisTier: CacheLeasing {
    public var isShared: Bool { true }

    /// The copy under `key`'s Redis key when it decodes, its expiry from the key's remaining TTL;
    /// nil when absent, rejected, over `maxValueBytes` or unreachable. Shortly after a cluster's
    /// failover, a key without a value is looked up again under the stand-in tag its image had
    /// during the outage (two lookups counted).
    public func cachedData(for key: String) -> CachedData? {
        let keys = keys(for: key)
        if let found = lookup(keys) { return found }
        guard let standIn = routing?.recentStandInTag(for: CacheKey.hashedName(for: key)) else { return nil }
        return lookup(Keys(cacheKey: key, hashTag: standIn))
    }

    /// Writes the bytes and their metadata (see `store(_:under:)`); returns them as given when
    /// Redis took them, nil otherwise.
    @discardableResult
    public func storeData(_ data: CachedData, for key: String, kind: CacheEntry.Kind) -> CachedData? {
        store(data, under: keys(for: key)) ? data : nil
    }

    public func removeData(for key: String) {
        remove(keys(for: key))
    }

    /// Removes the value under `key` only while Redis still holds `copy`'s payload (compared and
    /// deleted in one step by a script, so that a value another instance stored meanwhile
    /// survives); a copy whose bytes cannot be read removes nothing.
    public func removeData(for key: String, ifHolding copy: CachedData) {
        guard let payload = try? copy.data() else { return }
        remove(keys(for: key), ifHolding: payload)
    }

    var leaseTiming: LeaseTiming {
        LeaseTiming(
            ttl: configuration.leaseTTL, pollStart: configuration.leasePollStart, pollMax: configuration.leasePollMax,
            waitLimit: configuration.leaseWaitLimit)
    }

    func acquireLease(forCacheKey key: String) -> (attempt: LeaseAttempt, found: CachedData?) {
        acquireLease(keys(for: key))
    }

    func renewLease(forCacheKey key: String, token: String) -> Bool {
        renewLease(keys(for: key), token: token)
    }

    func releaseLease(forCacheKey key: String, token: String) {
        releaseLease(keys(for: key), token: token)
    }
}
