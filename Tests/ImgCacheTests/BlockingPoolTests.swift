import TestSupport
import XCTest
@testable import ImgCache

final class BlockingPoolTests: XCTestCase {
    func testAQueueThatNeverDrainsHoldsAboutTheJobsWaitingNotEveryJobEverQueued() {
        let queue = BlockingPool.Queue()
        let job = BlockingPool.Job(flag: BlockingPool.CancellationFlag()) { _ in }
        XCTAssertTrue(queue.push(job))
        for _ in 0..<10_000 {
            XCTAssertTrue(queue.push(job))
            XCTAssertNotNil(queue.pop())
        }
        XCTAssertLessThanOrEqual(queue.slotCount, 128, "one job waits; the slots of taken jobs are dropped")
        XCTAssertNotNil(queue.pop())
        XCTAssertEqual(queue.slotCount, 0)
    }

    func testJobsRunInArrivalOrderAndAJobCancelledBeforeItStartsDoesNotRun() async throws {
        let pool = BlockingPool(threadCount: 1, name: "imgcache-test")
        let started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let blocker = Task { try await pool.run { started.signal(); gate.wait() } }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { started.wait(); continuation.resume() }
        }
        // The one thread is busy: each job queued waits, and each is queued before the next.
        let order = OrderLog()
        func queued(_ value: Int, behind count: Int) async -> Task<Void, any Error> {
            let task = Task { try await pool.run { order.append(value) } }
            while pool.queue.slotCount <= count { await Task.yield() }
            return task
        }
        let first = await queued(1, behind: 0)
        let skipped = await queued(99, behind: 1)
        let second = await queued(2, behind: 2)
        skipped.cancel()
        gate.signal()
        _ = try await (blocker.value, first.value, second.value)
        do {
            try await skipped.value
            XCTFail("a job cancelled before it starts must not run")
        } catch is CancellationError {}
        XCTAssertEqual(order.values, [1, 2])
    }

    /// Both threads busy and three jobs queued: `shutdown()` refuses new jobs at once, runs the
    /// three queued, and returns only once both threads have ended (gone from the process's task
    /// list, their thread-exit destructors run).
    func testShutdownRunsTheJobsQueuedThenReturnsOnlyOnceEveryThreadHasEnded() async throws {
        let name = "pool-shut-\(UInt8.random(in: 0...99))"
        let pool = BlockingPool(threadCount: 2, name: name)
        // Each thread names itself as it starts.
        try await waitUntil("both threads run") { Self.threads(named: name).count == 2 }
        let started = Arrivals(), gate = DispatchSemaphore(value: 0)
        let blockers = (0..<2).map { _ in Task { try await pool.run { started.arrive(); gate.wait() } } }
        await started.wait(for: 2)
        let ran = OrderLog()
        var queued: [Task<Void, any Error>] = []
        for value in 1...3 {
            queued.append(Task { try await pool.run { ran.append(value) } })
            while pool.queue.slotCount < value { await Task.yield() }
        }
        let shutDown = Arrivals()
        DispatchQueue.global().async {
            pool.shutdown()
            shutDown.arrive()
        }
        // Closed before it waits: a job offered now is refused. (One offered before it closed
        // waits its turn behind the others, doing nothing.)
        let probe = BlockingPool.Job(flag: BlockingPool.CancellationFlag()) { _ in }
        try await waitUntil("the pool refuses new jobs") { !pool.queue.push(probe) }
        do {
            try await pool.run { ran.append(99) }
            XCTFail("a job run after shutdown began must be refused")
        } catch ImgCacheError.shutDown {}
        XCTAssertEqual(shutDown.count, 0, "the threads are still busy")
        gate.signal()
        gate.signal()
        await shutDown.wait(for: 1)
        XCTAssertEqual(ran.values.sorted(), [1, 2, 3], "the jobs queued ran before the threads ended; the refused one never")
        XCTAssertEqual(Self.threads(named: name), [], "every thread of the pool has ended")
        for task in blockers + queued { try await task.value }
        pool.shutdown()
    }

    func testAPoolReleasedWithoutShutdownEndsItsThreads() async throws {
        let name = "pool-free-\(UInt8.random(in: 0...99))"
        var pool: BlockingPool? = BlockingPool(threadCount: 3, name: name)
        let answer = try await pool?.run { 7 }
        XCTAssertEqual(answer, 7)
        try await waitUntil("the three threads run") { Self.threads(named: name).count == 3 }
        pool = nil
        try await waitUntil("the released pool's threads end") { Self.threads(named: name).isEmpty }
    }

    /// The names of this process's threads named `prefix-N`.
    private static func threads(named prefix: String) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            guard let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8) else { return nil }
            let trimmed = name.trimmingCharacters(in: .newlines)
            return trimmed.hasPrefix(prefix + "-") ? trimmed : nil
        }
    }
}

/// Values appended from the pool's thread, read by the test.
private final class OrderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    func append(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}
