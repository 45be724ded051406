import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A small pool of blocking connections to one Redis server that never fails its caller: a command that
/// cannot be run (no address, no connection, a time-out, a broken connection) returns nil within
/// the configured time-outs. Meant for the pipeline's blocking threads, never the cooperative pool.
/// The host name is resolved when the client is made (see `RedisHostResolver`).
///
/// After a failure Redis is skipped (every call returns nil at once) for
/// `retryAfterFailure`, doubling with each failed retry up to `retryAfterFailureMax`, so that
/// an outage costs one connect attempt per period, not one per request. The first failure of an
/// outage is reported once through `log`; a success ends the outage.
final class RedisClient: RedisCommandRouting {
    let address: RedisAddress
    let configuration: RedisConfiguration
    private let log: (@Sendable (String) -> Void)?
    private let resolver: RedisHostResolver
    /// Lets at most `connectionCount` commands run at once.
    private let slots: DispatchSemaphore
    private let state: Mutex<State>

    private struct State: ~Copyable {
        /// Open connections not lent out.
        var idle: [RedisConnection] = []
        /// Set by `close()`: no command runs from then on.
        var isClosed = false
        /// Calls are skipped until then after a failure.
        var skipUntil: DispatchTime?
        /// The next skip period.
        var retryDelay: TimeInterval
        /// When the current outage began: from a failure to the next success of a command started
        /// after it (one warning per outage; a reply already on its way when the server died
        /// does not end the outage).
        var downSince: DispatchTime?
    }

    /// A pool of connections to `address` with `configuration`'s credentials, database, limits
    /// and time-outs.
    init(address: RedisAddress, configuration: RedisConfiguration, log: (@Sendable (String) -> Void)?) {
        self.address = address
        self.configuration = configuration
        self.log = log
        resolver = RedisHostResolver(host: address.host, port: address.port)
        slots = DispatchSemaphore(value: configuration.connectionCount)
        state = Mutex(State(retryDelay: configuration.retryAfterFailure))
    }

    /// Runs `commands` in one round trip on a pooled connection (opening one when none is idle)
    /// and returns their replies; nil when Redis is being skipped after a failure, when every
    /// connection stays busy for the command time-out, or when the commands fail. A reused
    /// connection that the server closed (a restart) is replaced once before giving up. The
    /// configuration must be valid (`RedisTier` checks it).
    func run(_ commands: [[Data]]) -> [RedisReply]? {
        let now = DispatchTime.now()
        if state.withLock({ state in state.isClosed || (state.skipUntil.map { now < $0 } ?? false) }) { return nil }
        guard slots.wait(timeout: now + configuration.commandTimeout) == .success else { return nil }
        defer { slots.signal() }
        var reused = state.withLock { state in state.idle.popLast() }
        while true {
            do throws(RedisFailure) {
                let connection = if let reused { reused } else { try connect() }
                let replies = try connection.run(pipelined: commands)
                state.withLock { state in
                    if !state.isClosed { state.idle.append(connection) }
                    guard state.downSince.map({ now > $0 }) ?? true else { return }
                    state.downSince = nil
                    state.skipUntil = nil
                    state.retryDelay = configuration.retryAfterFailure
                }
                return replies
            } catch where reused != nil && error.isClosedConnection {
                reused = nil
            } catch {
                failed(error.description)
                return nil
            }
        }
    }

    /// True: every key is on this server.
    var isSingleServer: Bool { true }

    /// True while calls are skipped after a failure (see the type).
    var isSkipped: Bool {
        let now = DispatchTime.now()
        return state.withLock { state in state.skipUntil.map { now < $0 } ?? false }
    }

    /// True from a failure to the next success (an outage under way, skipped or being retried).
    var isDown: Bool {
        state.withLock { state in state.downSince != nil }
    }

    /// Runs `commands` as `run(_:)` does: every key is on this server.
    func run(_ commands: [[Data]], slotKey: String?) -> [RedisReply]? {
        run(commands)
    }

    /// The server's URL without its password, for messages.
    var displayURL: String { "redis://\(address)/\(configuration.database)" }

    /// Closes the idle connections, and each busy one as its command returns; every later `run`
    /// returns nil at once.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.idle.removeAll()
        }
    }

    /// A new connection to the host's addresses; when it cannot be made, the addresses of a
    /// name are looked up again next time (the server may have moved).
    private func connect() throws(RedisFailure) -> RedisConnection {
        let addresses = try resolver.addresses(timeout: configuration.resolveTimeout)
        do {
            return try RedisConnection(addresses: addresses, displayURL: displayURL, configuration: configuration)
        } catch {
            resolver.forget(addresses)
            throw error
        }
    }

    /// Starts or extends an outage: idle connections are dropped, Redis is skipped for the retry
    /// delay (which doubles for the next failure), and the first failure of an outage is logged.
    private func failed(_ detail: String) {
        let now = DispatchTime.now()
        let (warns, delay) = state.withLock { state -> (Bool, TimeInterval) in
            state.idle.removeAll()
            // Calls already running when the outage began do not lengthen it.
            if let skipUntil = state.skipUntil, now < skipUntil { return (false, 0) }
            let delay = state.retryDelay
            state.skipUntil = now + delay
            state.retryDelay = min(delay * 2, configuration.retryAfterFailureMax)
            guard state.downSince == nil else { return (false, delay) }
            state.downSince = now
            return (true, delay)
        }
        if warns {
            log?("warning: Redis at \(displayURL) is unavailable (\(detail)); "
                + "serving without it, next try in \(delay) s")
        }
    }
}
