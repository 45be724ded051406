import XCTest
@testable import ImgCache

final class BlockingPoolTests: XCTestCase {
    func testAQueueThatNeverDrainsHoldsAboutTheJobsWaitingNotEveryJobEverQueued() {
        let queue = BlockingPool.Queue()
        let job = BlockingPool.Job(flag: BlockingPool.CancellationFlag()) { _ in }
        queue.push(job)
        for _ in 0..<10_000 {
            queue.push(job)
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
}

/// Values appended from the pool's thread, read by the test.
private final class OrderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    func append(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}
