import Foundation
import Synchronization

/// Routes the tier's round trips over a Redis Cluster: each goes to the master of its slot key's
/// hash slot, by a slot map read with `CLUSTER SLOTS` from a seed or a known master, through a
/// `RedisClient` per master (each with the configuration's connection count, time-outs and
/// skipping after a failure).
///
/// `-MOVED` updates the slot's master, retries there once, and has the whole map read again
/// before a later round trip; `-ASK` retries once on the node named, after `ASKING`. A node
/// that fails has the map read again from the other nodes, every `refreshInterval` while the
/// map still names it a master, so that the replica promoted in its place takes its slots
/// within that time. Meanwhile its round trips return nil, and the tier places the keys of the
/// images of its slots under stand-in hash tags on the live masters (see `hashTag(for:)`).
///
/// One warning per outage: the first node failure warns, and no other does until a round trip
/// succeeds on a map read after the last failure. A node that fails while the map is read from
/// it warns only when no node answers, or when the map read from another names it as a master
/// (a seed that is down, or a master already replaced, is no outage).
final class RedisClusterRouter: RedisCommandRouting {
    private let seeds: [RedisAddress]
    private let configuration: RedisConfiguration
    private let log: (@Sendable (String) -> Void)?
    private let state: Mutex<State>
    /// Held by the one caller reading the map.
    private let refreshing = DispatchSemaphore(value: 1)

    /// The shortest time between two reads of the map after a node failed.
    static let refreshInterval: TimeInterval = 0.25
    /// The stand-in tags `hashTag(for:)` tries: `TAG~1` to `TAG~8`. With one master of three
    /// down, all eight fall on it once in 6,561 images, which then go without the tier.
    static let standInCount = 8
    /// How long after a failover the tier still looks for a value under its image's stand-in
    /// tag when its own has none (see `recentStandInTag(for:)`).
    static let standInLookupPeriod: TimeInterval = 60

    private struct State: ~Copyable {
        var map: RedisSlotMap?
        /// True when the map is known to be out of date (a redirect, a failed node).
        var isStale = false
        /// When the map was last read (uptime nanoseconds).
        var readAt: UInt64 = 0
        var clients: [RedisAddress: RedisClient] = [:]
        var isClosed = false
        /// From the first warning of an outage to a round trip that succeeds on a map read after
        /// the last node failure (`failedAt`, uptime nanoseconds).
        var isWarned = false
        var failedAt: UInt64 = 0
        /// The node the map is being read from, and the warnings of such nodes kept until the
        /// read ends.
        var mapSource: RedisAddress?
        var heldWarnings: [(node: RedisAddress, message: String)] = []
        /// The last outage the map ended (a master down replaced by another), until
        /// `standInLookupPeriod` after: the map of the outage, and the masters down in it.
        var endedOutage: (map: RedisSlotMap, down: Set<RedisAddress>, until: UInt64)?
    }

    /// A router that reads the map from `seeds` when first used; `configuration` must be valid.
    init(seeds: [RedisAddress], configuration: RedisConfiguration, log: (@Sendable (String) -> Void)?) {
        self.seeds = seeds
        self.configuration = configuration
        self.log = log
        state = Mutex(State())
    }

    /// False: a round trip may touch one hash slot only.
    var isSingleServer: Bool { false }

    func run(_ commands: [[Data]], slotKey: String?) -> [RedisReply]? {
        guard let map = currentMap() else { return nil }
        let slot = slotKey.map(RedisHashSlot.slot(of:))
        guard let node = slot.map({ map.master(of: $0) }) ?? map.masters.first else {
            markStale()
            return nil
        }
        guard let replies = client(for: node)?.run(commands) else {
            markStale()
            return nil
        }
        guard let redirect = RedisRedirect(in: replies, from: node) else {
            state.withLock { state in
                if state.isWarned && !state.isStale && state.readAt > state.failedAt { state.isWarned = false }
            }
            return replies
        }
        switch redirect.kind {
        case .moved:
            state.withLock { state in
                state.map?.assign(redirect.slot, to: redirect.address)
                state.isStale = true
            }
            return client(for: redirect.address)?.run(commands)
        case .ask:
            return client(for: redirect.address)?.run([Self.asking] + commands).map { Array($0.dropFirst()) }
        }
    }

    /// `tag` while the master of its hash slot serves; while that master is down (its pool
    /// skipping it after a failure, the map not yet naming its successor), the first of
    /// `tag~1` ... `tag~8` whose slot's master is not, so that the instances of a fleet, which
    /// each find the same master down at its first failed round trip, still share one lease and
    /// one value per image through a failover. Once the map names the promoted replica, `tag`
    /// again: what was stored under a stand-in is left to its TTL.
    func hashTag(for tag: String) -> String {
        guard let (map, clients) = state.withLock({ state in state.map.map { ($0, state.clients) } }) else { return tag }
        return Self.standInTag(for: tag, in: map) { clients[$0]?.isSkipped != true } ?? tag
    }

    /// The stand-in `hashTag(for:)` gave `tag` in the last outage that ended (its master
    /// replaced in the map) within `standInLookupPeriod`: after the failover, the values stored
    /// under it are still found by those who did not fetch them in time.
    func recentStandInTag(for tag: String) -> String? {
        let now = DispatchTime.now().uptimeNanoseconds
        guard let outage = state.withLock({ $0.endedOutage }), now < outage.until else { return nil }
        return Self.standInTag(for: tag, in: outage.map) { !outage.down.contains($0) }
    }

    /// Nil when the master of `tag`'s slot in `map` is serving; otherwise the first of
    /// `tag~1` ... `tag~<standInCount>` whose master is (nil when none is).
    private static func standInTag(for tag: String, in map: RedisSlotMap, isServing: (RedisAddress) -> Bool) -> String? {
        func serves(_ tag: String) -> Bool { map.master(of: RedisHashSlot.slot(of: tag)).map(isServing) ?? false }
        if serves(tag) { return nil }
        return (1...standInCount).lazy.map { "\(tag)~\($0)" }.first(where: serves)
    }

    func close() {
        let clients = state.withLock { state in
            state.isClosed = true
            defer { state.clients.removeAll() }
            return Array(state.clients.values)
        }
        for client in clients { client.close() }
    }

    private static let asking = [Data("ASKING".utf8)]
    private static let clusterSlots = [Data("CLUSTER".utf8), Data("SLOTS".utf8)]

    /// The slot map, read first when there is none (callers then wait for the one reading it,
    /// up to the time a read may take), or when it is stale and `refreshInterval` has passed
    /// (by one caller; the others go on with the map they have). Nil without a map.
    private func currentMap() -> RedisSlotMap? {
        let now = DispatchTime.now().uptimeNanoseconds
        let (map, due) = state.withLock { state -> (RedisSlotMap?, Bool) in
            let due = state.map == nil
                || (state.isStale && now >= state.readAt + UInt64(Self.refreshInterval * 1e9))
            return (state.isClosed ? nil : state.map, due && !state.isClosed)
        }
        guard due else { return map }
        let wait = map == nil ? configuration.connectTimeout + configuration.commandTimeout : 0
        guard refreshing.wait(timeout: .now() + wait) == .success else { return map }
        defer { refreshing.signal() }
        // Another caller may have read it meanwhile.
        let stillDue = state.withLock { state in
            state.map == nil || (state.isStale && now >= state.readAt + UInt64(Self.refreshInterval * 1e9))
        }
        guard stillDue else { return state.withLock { $0.map } }
        return readMap() ?? map
    }

    /// Reads the map from the first node that answers `CLUSTER SLOTS` with one: the known
    /// masters, then the seeds (a failed node is skipped at once by its client). Clients of nodes
    /// no longer masters are closed.
    private func readMap() -> RedisSlotMap? {
        let known = state.withLock { state in
            state.readAt = DispatchTime.now().uptimeNanoseconds
            return state.map?.masters ?? []
        }
        var read: RedisSlotMap?
        for node in known + seeds.filter({ !known.contains($0) }) where read == nil {
            state.withLock { $0.mapSource = node }
            let reply = client(for: node)?.run([Self.clusterSlots])?.first
            state.withLock { $0.mapSource = nil }
            read = reply.flatMap { RedisSlotMap(slotsReply: $0, from: node) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let held = state.withLock { state in
            defer { state.heldWarnings = [] }
            return state.heldWarnings
        }
        for (node, message) in held where read?.masters.contains(node) ?? true { warn(message, from: nil) }
        guard let map = read else { return nil }
        let retired = state.withLock { state -> [RedisClient] in
            if let old = state.map {
                let replaced = Set(old.masters.filter { state.clients[$0]?.isDown == true && !map.masters.contains($0) })
                if !replaced.isEmpty {
                    let until = DispatchTime.now().uptimeNanoseconds + UInt64(Self.standInLookupPeriod * 1e9)
                    state.endedOutage = (old, replaced, until)
                }
            }
            state.map = map
            // Read again while a master it names is down, until its replica takes its place.
            state.isStale = map.masters.contains { state.clients[$0]?.isDown == true }
            let keep = Set(map.masters + seeds)
            let retired = state.clients.filter { !keep.contains($0.key) }
            for address in retired.keys { state.clients[address] = nil }
            return Array(retired.values)
        }
        for client in retired { client.close() }
        return map
    }

    /// The pool of `address`, made when first needed; nil once closed.
    private func client(for address: RedisAddress) -> RedisClient? {
        state.withLock { state in
            if state.isClosed { return nil }
            if let client = state.clients[address] { return client }
            let client = RedisClient(address: address, configuration: configuration) { [weak self] message in
                self?.warn(message, from: address)
            }
            state.clients[address] = client
            return client
        }
    }

    /// Notes a node failure: the map is to be read again.
    private func markStale() {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            state.isStale = true
            state.failedAt = now
        }
    }

    /// Passes a node's warning on when it is the first of an outage; holds it when the map is
    /// being read from that node (see the type).
    private func warn(_ message: String, from node: RedisAddress?) {
        let first = state.withLock { state in
            if let node, node == state.mapSource {
                state.heldWarnings.append((node, message))
                return false
            }
            defer { state.isWarned = true }
            return !state.isWarned
        }
        if first { log?(message) }
    }
}
