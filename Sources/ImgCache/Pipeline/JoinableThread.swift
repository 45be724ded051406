import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A POSIX thread that runs one closure and can be waited for until it has ended, its
/// thread-exit destructors (libcrypto's per-thread state among them) included: Foundation's
/// `Thread` cannot be joined. A thread never joined is detached when this value is released, so
/// that its resources go back when it ends.
final class JoinableThread: @unchecked Sendable {
    // Written once in init; `join()` and deinit are the only readers, and `join` runs once.
    private var thread: pthread_t
    private var isJoined = false

    /// Starts a thread named `name` (as seen by a debugger or `top -H`, which show its first 15
    /// bytes) that runs `body`. Stops the process when no thread can be made (out of threads or
    /// memory).
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body {
            Thread.current.name = name
            body()
        }).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        precondition(status == 0, "pthread_create failed (\(status)) for thread \(name)")
        self.thread = thread
    }

    /// Waits until the thread has ended. Call it once, never from the thread itself.
    func join() {
        precondition(!isJoined, "JoinableThread joined twice")
        isJoined = true
        pthread_join(thread, nil)
    }

    deinit {
        if !isJoined { pthread_detach(thread) }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
