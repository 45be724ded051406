import Foundation
import Synchronization

/// The socket addresses of the Redis host, with a bounded wait: getaddrinfo has no time-out, so
/// a name is resolved on a thread of its own (one at a time) and callers wait for it up to their
/// deadline, leaving a slow lookup to finish in the background. An IP address is parsed at once
/// (no lookup). A name's addresses are kept until `forget(_:)` (a connection to them failed),
/// when the next call resolves it again.
final class RedisHostResolver: Sendable {
    /// One socket address of the host.
    typealias Address = SocketAddress

    /// Resolves a name (the host) for a TCP port (the service): getaddrinfo, or a test's double.
    typealias Lookup = @Sendable (_ host: String, _ service: String) throws(RedisFailure) -> [Address]

    /// A lookup in flight, which its callers wait for.
    private typealias PendingLookup = ImgCache.PendingLookup<RedisFailure>

    private enum State {
        case idle
        case resolving(PendingLookup)
        case resolved([Address])
    }

    /// What a caller finds: the kept addresses, or a lookup to wait for.
    private enum Found {
        case addresses([Address])
        case pending(PendingLookup)
    }

    private let host: String
    private let service: String
    private let isNumeric: Bool
    private let resolveName: Lookup
    private let state: Mutex<State>

    /// Starts resolving `host` (unless it is an IP address) for TCP port `port`, with
    /// `resolveName` (default getaddrinfo).
    init(host: String, port: Int, resolveName: @escaping Lookup = { host, service throws(RedisFailure) in
        try RedisHostResolver.resolve(host, service: service, numericOnly: false)
    }) {
        self.host = host
        service = String(port)
        self.resolveName = resolveName
        let numeric = try? Self.resolve(host, service: service, numericOnly: true)
        isNumeric = numeric != nil
        state = Mutex(numeric.map(State.resolved) ?? .idle)
        if !isNumeric { lookup() }
    }

    /// The host's addresses, waiting up to `timeout` for a lookup.
    /// - Throws: `RedisFailure` when the name does not resolve, or not within `timeout`.
    func addresses(timeout: TimeInterval) throws(RedisFailure) -> [Address] {
        let pending: PendingLookup
        switch lookup() {
        case .addresses(let addresses): return addresses
        case .pending(let lookup): pending = lookup
        }
        guard let result = pending.wait(timeout: timeout) else {
            throw RedisFailure("cannot resolve \(host) within \(Int((timeout * 1000).rounded())) ms")
        }
        return try result.get()
    }

    /// Drops `addresses` when they are the ones kept for a name: the next call resolves it again.
    func forget(_ addresses: [Address]) {
        guard !isNumeric else { return }
        state.withLock { state in
            if case .resolved(let kept) = state, kept == addresses { state = .idle }
        }
    }

    /// The kept addresses, or the lookup in flight, started now when there is none.
    @discardableResult
    private func lookup() -> Found {
        let (found, started) = state.withLock { state -> (Found, Bool) in
            switch state {
            case .resolved(let addresses): return (.addresses(addresses), false)
            case .resolving(let lookup): return (.pending(lookup), false)
            case .idle:
                let lookup = PendingLookup()
                state = .resolving(lookup)
                return (.pending(lookup), true)
            }
        }
        if started, case .pending(let lookup) = found {
            Thread.detachNewThread { [self] in finish(lookup) }
        }
        return found
    }

    /// Runs `lookup` (on its own thread): keeps the addresses found, or goes back to idle.
    private func finish(_ lookup: PendingLookup) {
        let result = Result<[Address], RedisFailure> { () throws(RedisFailure) in try resolveName(host, service) }
        state.withLock { state in
            guard case .resolving(let current) = state, current === lookup else { return }
            state = (try? result.get()).map(State.resolved) ?? .idle
        }
        lookup.finish(with: result)
    }

    /// getaddrinfo for a TCP stream to `host`:`service`; with `numericOnly`, an IP address only
    /// (no lookup).
    private static func resolve(_ host: String, service: String, numericOnly: Bool) throws(RedisFailure) -> [Address] {
        do {
            return try SocketAddress.lookUp(host, service: service, numericOnly: numericOnly)
        } catch {
            throw RedisFailure(error.description)
        }
    }
}
