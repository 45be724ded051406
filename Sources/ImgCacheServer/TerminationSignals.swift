import Dispatch
import Glibc
import Synchronization

/// Calls a closure when the process receives SIGTERM or SIGINT, for `imgcache serve`: the closure
/// starts `HTTPServer.shutdown(drainSeconds:)`, and the process exits when it returns.
///
/// While installed, the signals no longer end the process: each one received calls `handler` on
/// `queue` (a second SIGINT calls it again, which a CLI may take as "exit now").
public final class TerminationSignals: @unchecked Sendable {
    // Unchecked Sendable: the sources are set up in init and only cancelled afterwards, which
    // Dispatch allows from any thread.
    private let sources: [any DispatchSourceSignal]
    private let signals: [Int32]

    /// The action each signal had once its first source was registered: on Linux, Dispatch then
    /// installs a handler of its own, and only for the first source of a signal in the process,
    /// so it is put back for later ones.
    private static let registeredActions = Mutex<[Int32: sigaction]>([:])

    /// Installs the handlers for `signals` (default SIGTERM and SIGINT), calling `handler` with
    /// the signal's number on `queue` (default a serial queue of its own); returns once every
    /// signal is caught. Not to be called on `queue` itself.
    public init(signals: [Int32] = [SIGTERM, SIGINT], queue: DispatchQueue = DispatchQueue(label: "imgcache.termination-signals"),
                handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        let registered = DispatchSemaphore(value: 0)
        self.sources = signals.map { number in
            if var action = Self.registeredActions.withLock({ $0[number] }) {
                sigaction(number, &action, nil)
            } else {
                // Ignored until the source is registered, so that none ends the process meanwhile.
                signal(number, SIG_IGN)
            }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        for _ in signals { registered.wait() }
        Self.registeredActions.withLock { actions in
            for number in signals where actions[number] == nil {
                var action = sigaction()
                sigaction(number, nil, &action)
                actions[number] = action
            }
        }
    }

    /// Gives the signals their default action back and stops calling the handler.
    public func cancel() {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }

    deinit {
        cancel()
    }
}
