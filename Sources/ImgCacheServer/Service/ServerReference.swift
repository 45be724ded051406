import Synchronization

/// The server a service reads its state and statistics from, set once it is made; weak, as the
/// server holds the service.
final class ServerReference: Sendable {
    private struct Weak {
        weak var server: HTTPServer?
    }

    private let stored = Mutex(Weak())

    var server: HTTPServer? {
        get { stored.withLock { $0.server } }
        set { stored.withLock { $0.server = newValue } }
    }
}
