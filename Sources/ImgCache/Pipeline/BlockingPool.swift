import Foundation
import Synchronization

/// Threads of the library's own for work that blocks: SQLite (which may wait for another
/// process's lock), file reads and writes, fsync, decoding and encoding; a pipeline has a second
/// pool for the shared tiers' calls (Redis round trips), so that they never wait on a thread a
/// decode needs. An async caller suspends
/// while a pool thread does the work, so none of it ever occupies a thread of Swift's cooperative
/// executor, which a server shares with all its other tasks.
///
/// The pool has a fixed number of threads, started with it; jobs wait in arrival order for a free
/// thread. A job whose caller is cancelled before a thread takes it does not run. `shutdown()`
/// runs the jobs queued, then waits until every thread has ended; a pool released without it
/// ends its threads once they have run the jobs queued, without waiting for them.
final class BlockingPool: Sendable {
    /// Set by a caller's cancellation; a job not yet started is then skipped.
    final class CancellationFlag: Sendable {
        let isSet = Atomic<Bool>(false)
    }

    struct Job: Sendable {
        let flag: CancellationFlag
        /// Runs the work, or (when passed true) reports that it was skipped.
        let body: @Sendable (_ cancelled: Bool) -> Void
    }

    /// Jobs in arrival order; the threads hold this, not the pool, so releasing the pool ends them.
    /// Taken jobs leave an empty slot before `head`; the slots are dropped once they are half of
    /// the array, so that a queue that never drains (a server under steady load) stays as long as
    /// the jobs waiting, not as long as every job ever queued.
    final class Queue: Sendable {
        private struct State {
            var jobs: [Job?] = []
            var head = 0
            var isClosed = false
        }

        private let state = Mutex(State())
        private let pending = DispatchSemaphore(value: 0)

        /// Queues `job`; false (and nothing queued) once the queue is closed.
        func push(_ job: Job) -> Bool {
            let isQueued = state.withLock { state in
                guard !state.isClosed else { return false }
                state.jobs.append(job)
                return true
            }
            if isQueued { pending.signal() }
            return isQueued
        }

        /// Wakes `threads` waiting threads so that they see the queue closed and end.
        func close(threads: Int) {
            state.withLock { $0.isClosed = true }
            for _ in 0..<threads { pending.signal() }
        }

        /// Slots held: the jobs waiting and the empty slots of jobs taken (for tests).
        var slotCount: Int { state.withLock { $0.jobs.count } }

        /// The next job, waiting for one; nil once the queue is closed and empty.
        func pop() -> Job? {
            pending.wait()
            return state.withLock { state in
                guard state.head < state.jobs.count else { return nil }
                let job = state.jobs[state.head]
                state.jobs[state.head] = nil
                state.head += 1
                if state.head == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head >= 64 && state.head * 2 >= state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return job
            }
        }
    }

    let threadCount: Int
    let queue = Queue()
    /// The threads, until `shutdown()` takes them to wait for their end.
    private let threads: Mutex<[JoinableThread]>

    /// Starts `threadCount` threads (at least 1) named `name-1`, `name-2`... as seen by a
    /// debugger or `top -H` (Linux keeps 15 bytes of a name).
    init(threadCount: Int, name: String) {
        self.threadCount = max(1, threadCount)
        let queue = self.queue
        threads = Mutex((1...self.threadCount).map { number in
            JoinableThread(name: "\(name)-\(number)") {
                while let job = queue.pop() { job.body(job.flag.isSet.load(ordering: .relaxed)) }
            }
        })
    }

    deinit { queue.close(threads: threadCount) }

    /// Runs the jobs queued, refuses new ones (`run` throws `ImgCacheError.shutDown`), and blocks
    /// the calling thread until every thread of the pool has ended. Later calls return at once.
    /// Never call it from a job of this pool.
    func shutdown() {
        let ending = threads.withLock { threads in
            defer { threads = [] }
            return threads
        }
        guard !ending.isEmpty else { return }
        queue.close(threads: threadCount)
        for thread in ending { thread.join() }
    }

    /// Runs `work` on a pool thread and returns its result. Throws `CancellationError` without
    /// running `work` when the calling task is cancelled before a thread takes it, and
    /// `ImgCacheError.shutDown` once the pool is shut down.
    func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                let job = Job(flag: flag) { cancelled in
                    if cancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(with: Swift.Result { try work() })
                    }
                }
                if !queue.push(job) { continuation.resume(throwing: ImgCacheError.shutDown) }
            }
        } onCancel: {
            flag.isSet.store(true, ordering: .relaxed)
        }
    }
}
