import Foundation
import Synchronization

/// One warning per outage for a client made of parts that each notice failures (the sentinels,
/// and the connection pools of the masters found one after another): the first warning of an
/// outage is passed to `log`, later ones are dropped until a round trip started after the outage
/// began succeeds (a reply already on its way when it began does not end it).
final class RedisOutageWarning: Sendable {
    private let log: (@Sendable (String) -> Void)?
    /// When the outage began (uptime nanoseconds); nil while Redis answers.
    private let downSince = Mutex<UInt64?>(nil)

    init(log: (@Sendable (String) -> Void)?) {
        self.log = log
    }

    /// Passes `message` on when no outage is under way, and starts one.
    func warn(_ message: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        let first = downSince.withLock { downSince in
            guard downSince == nil else { return false }
            downSince = now
            return true
        }
        if first { log?(message) }
    }

    /// Ends the outage when the round trip that succeeded started after it began.
    func succeeded(startedAt start: UInt64) {
        downSince.withLock { downSince in
            if let since = downSince, start > since { downSince = nil }
        }
    }
}
