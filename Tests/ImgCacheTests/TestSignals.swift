import Foundation
import Synchronization
import XCTest

/// Signals a test holds to order tasks without sleeping: a gate that holds tasks until the test
/// opens it, a tally of arrivals a test can await, and a barrier for threads. (`waitUntil`, the
/// wait for a state a type reports, is in TestSupport.)

/// Holds the tasks that `wait()` until the test calls `open()`; once open, `wait()` returns at
/// once. A task cancelled before or while it waits leaves at once with `CancellationError`.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The tasks held now.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock: a cancellation handler that ran before this finds nothing to
                // resume, and this then sees the task cancelled.
                let now = state.withLock { state -> Result<Void, any Error>? in
                    if state.isOpen { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }
}

/// Counts arrivals (from any thread); `wait(for:)` returns once there have been that many.
final class Arrivals: Sendable {
    private struct State {
        var count = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.count } }

    func arrive() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func wait(for count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state -> Bool in
                if state.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }
}

/// Holds each thread that calls `arriveAndWait()` until `count` threads are held at once, then
/// lets them all go: for tasks that must each occupy a thread at the same moment.
final class ThreadBarrier: @unchecked Sendable {
    let count: Int
    private let condition = NSCondition()
    private var arrived = 0

    init(count: Int) {
        self.count = count
    }

    /// Blocks this thread until `count` threads have arrived; false when they have not within
    /// `timeout`. The bound only ends a broken run, in which they never all arrive, with a failure
    /// rather than a hang: a working one meets it at once.
    func arriveAndWait(timeout: TimeInterval = 120) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived >= count { condition.broadcast() }
        let deadline = Date().addingTimeInterval(timeout)
        while arrived < count {
            if !condition.wait(until: deadline) { return arrived >= count }
        }
        return true
    }
}

/// A value shared between tasks and threads, read and changed under a lock.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    var value: Value { mutex.withLock { $0 } }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
