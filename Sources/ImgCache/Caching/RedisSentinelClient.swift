import Foundation
import Synchronization

/// The shared tier's Redis behind Redis Sentinel: a connection pool (`RedisClient`) to the master
/// that the sentinels name (see `RedisSentinelLookup`), found again after a round trip to it fails
/// or it answers `-READONLY` (a master demoted to a replica by a failover). Like every router it
/// never fails its caller: while no master answers, round trips return nil within the time-outs.
///
/// The master is looked up on a thread of its own: when the client is made, after a round trip
/// to the master failed (at most once per `retryAfterFailure`, while the old master's pool skips
/// Redis as after any failure), and at once after a `-READONLY`, when the demoted master is let go.
/// A round trip that finds no master known waits for the lookup at most the connect plus the
/// command time-out, then returns nil, the lookup going on in the background. A lookup that names
/// another master replaces the pool. One warning per outage, whichever part notices it.
final class RedisSentinelClient: RedisCommandRouting {
    private let configuration: RedisConfiguration
    private let lookup: RedisSentinelLookup
    private let warning: RedisOutageWarning
    private let state = Mutex(State())

    private struct State: ~Copyable {
        /// The pool to the master last found; nil before the first lookup succeeds and after a
        /// `-READONLY`.
        var master: RedisClient?
        /// Left by the lookup under way when it ends.
        var pending: DispatchGroup?
        /// The earliest start of a lookup after a failure (uptime nanoseconds).
        var nextLookup: UInt64 = 0
        var isClosed = false
    }

    /// A client for master `masterName` through `sentinels`; starts looking it up now.
    /// `log` receives one warning per outage.
    init(sentinels: [RedisAddress], masterName: String, configuration: RedisConfiguration, log: (@Sendable (String) -> Void)?) {
        self.configuration = configuration
        lookup = RedisSentinelLookup(sentinels: sentinels, masterName: masterName, configuration: configuration)
        warning = RedisOutageWarning(log: log)
        startLookup(now: DispatchTime.now().uptimeNanoseconds, force: true)
    }

    /// True: every key is on the master.
    var isSingleServer: Bool { true }

    /// Runs `commands` on the master in one round trip; nil when no master is known in time,
    /// when the round trip fails, or when the master answers `-READONLY` to any of them.
    func run(_ commands: [[Data]], slotKey: String?) -> [RedisReply]? {
        let start = DispatchTime.now().uptimeNanoseconds
        guard let master = master(now: start) else { return nil }
        guard let replies = master.run(commands) else {
            startLookup(now: DispatchTime.now().uptimeNanoseconds, force: false)
            return nil
        }
        if replies.contains(where: \.isReadOnlyError) {
            demoted(master)
            return nil
        }
        warning.succeeded(startedAt: start)
        return replies
    }

    /// Closes the master's connections; every later `run` returns nil at once.
    func close() {
        let master = state.withLock { state in
            state.isClosed = true
            return state.master.take()
        }
        master?.close()
    }

    /// The master's pool; when none is known, waits for a lookup (started now unless one ran
    /// within `retryAfterFailure`) up to the connect plus the command time-out.
    private func master(now: UInt64) -> RedisClient? {
        if let master = state.withLock({ $0.isClosed ? nil : $0.master }) { return master }
        guard let pending = startLookup(now: now, force: false) else { return nil }
        _ = pending.wait(timeout: .now() + configuration.connectTimeout + configuration.commandTimeout)
        return state.withLock { $0.isClosed ? nil : $0.master }
    }

    /// Lets the master that answered `-READONLY` go (unless another replaced it meanwhile) and
    /// looks for the new one at once.
    private func demoted(_ master: RedisClient) {
        let current = state.withLock { state in
            guard state.master === master else { return false }
            state.master = nil
            return true
        }
        guard current else { return }
        master.close()
        warning.warn("warning: Redis at \(master.displayURL) answers READONLY (a replica now); "
            + "serving without Redis until the sentinels name the new master")
        startLookup(now: DispatchTime.now().uptimeNanoseconds, force: true)
    }

    /// The lookup under way, or one started now on a thread of its own (when `force`, or when
    /// none started within `retryAfterFailure`); nil when there is none and none may start.
    @discardableResult
    private func startLookup(now: UInt64, force: Bool) -> DispatchGroup? {
        let retryDelay = UInt64((configuration.retryAfterFailure * 1e9).rounded())
        let (pending, started) = state.withLock { state -> (DispatchGroup?, Bool) in
            if let pending = state.pending { return (pending, false) }
            guard !state.isClosed, force || now >= state.nextLookup else { return (nil, false) }
            let pending = DispatchGroup()
            pending.enter()
            state.pending = pending
            state.nextLookup = now + retryDelay
            return (pending, true)
        }
        if started, let pending {
            Thread.detachNewThread { [self] in finishLookup(pending) }
        }
        return pending
    }

    /// Runs the lookup (on its own thread): a master found at another address replaces the pool;
    /// a lookup that fails leaves it as it is, and warns (once per outage) when no master is known:
    /// a known master's pool warns of its own failures.
    private func finishLookup(_ pending: DispatchGroup) {
        let found = Result { () throws(RedisFailure) in try lookup.master() }
        let (replaced, hasMaster) = state.withLock { state -> (RedisClient?, Bool) in
            state.pending = nil
            guard !state.isClosed, case .success(let address) = found, state.master?.address != address else {
                return (nil, state.master != nil)
            }
            let replaced = state.master
            state.master = RedisClient(address: address, configuration: configuration, log: { [warning] message in warning.warn(message) })
            return (replaced, true)
        }
        replaced?.close()
        if case .failure(let failure) = found, !hasMaster {
            warning.warn("warning: Redis behind the sentinels of \(configuration.displayURL) is unavailable "
                + "(\(failure.description)); serving without it, next try in \(configuration.retryAfterFailure) s")
        }
        pending.leave()
    }
}

extension RedisReply {
    /// True for a `-READONLY` error, alone or among a transaction's replies: a replica's answer
    /// to a write.
    var isReadOnlyError: Bool {
        switch self {
        case .error(let message): message.hasPrefix("READONLY")
        case .array(let items): items.contains(where: \.isReadOnlyError)
        default: false
        }
    }
}
