import Foundation
import Synchronization

/// At most `capacity` attempts at once to one server on a loader's shared session; the others
/// wait in arrival order, and each starts when one before it ends.
///
/// libcurl (7.88) queues a transfer that finds every connection to its host busy, but when a
/// connection is freed for the head of that queue, a transfer added meanwhile can take it, and the
/// one overtaken goes back to the end of the queue: behind a steady stream of new requests to the
/// same server it can wait without end (9 s where each request took 0.3 s, in `RedisLoadTests`).
/// With no more transfers to a server than connections to it, libcurl never queues one.
final class ConnectionSlots: Sendable {
    private struct Server {
        var running = 0
        /// The starts of the attempts waiting, in arrival order.
        var waiting: [@Sendable () -> Void] = []
    }

    let capacity: Int
    private let servers = Mutex<[HTTPOrigin: Server]>([:])

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Calls `start` once fewer than `capacity` attempts to `origin` run: at once, on the calling
    /// thread, when they do; otherwise on another thread when its turn comes. Whoever `start` is
    /// called for must call `leave(_:)` once, when its attempt ends (or at once, if it no longer
    /// needs the slot).
    func enter(_ origin: HTTPOrigin, _ start: @escaping @Sendable () -> Void) {
        let startsNow = servers.withLock { servers in
            var server = servers[origin] ?? Server()
            defer { servers[origin] = server }
            guard server.running < capacity else {
                server.waiting.append(start)
                return false
            }
            server.running += 1
            return true
        }
        if startsNow { start() }
    }

    /// An attempt to `origin` that was started ended: the first one waiting starts in its place.
    func leave(_ origin: HTTPOrigin) {
        let next: (@Sendable () -> Void)? = servers.withLock { servers in
            guard var server = servers[origin] else { return nil }
            defer { servers[origin] = server.running == 0 && server.waiting.isEmpty ? nil : server }
            guard !server.waiting.isEmpty else {
                server.running -= 1
                return nil
            }
            return server.waiting.removeFirst()
        }
        // On another thread: the caller may hold a lock, and a chain of attempts that ended while
        // they waited (each leaving at once) must not grow the stack.
        if let next { DispatchQueue.global().async(execute: next) }
    }

    /// The attempts waiting for `origin` (for tests).
    func waitingCount(for origin: HTTPOrigin) -> Int {
        servers.withLock { $0[origin]?.waiting.count ?? 0 }
    }
}
