import TestSupport
import XCTest
@testable import ImgCache

final class TaskCoalescerTests: XCTestCase {
    /// Work the test holds open: each run is counted and keeps the work context it was given (its
    /// members are the callers waiting on it), then waits at `gate` until the test opens it.
    private final class HeldWork: Sendable {
        let gate = Gate()
        private let runs = Locked<[WorkContext]>([])

        /// The work contexts of the runs so far, one per run.
        var contexts: [WorkContext] { runs.value }

        /// Runs as one piece of work: returns `value` once the gate opens.
        func run(_ context: WorkContext, returning value: Int) async throws -> Int {
            runs.withLock { $0.append(context) }
            try await gate.wait()
            return value
        }
    }

    /// Callers each with a context of their own, which records that progress reached it: the
    /// coalescer makes a caller's context a member of the work's, so progress the work reports
    /// reaches exactly the callers waiting on it.
    private final class Callers: Sendable {
        let contexts: [WorkContext]
        private let reached = Locked<Set<Int>>([])

        init(count: Int) {
            let reached = self.reached
            contexts = (0..<count).map { index in
                WorkContext(priority: .normal) { _, _ in _ = reached.withLock { $0.insert(index) } }
            }
        }

        /// The callers that progress reported by any run of `work` reaches now.
        func waiting(on work: HeldWork) -> Set<Int> {
            reached.withLock { $0 = [] }
            for context in work.contexts { context.reportProgress(received: 0, expected: nil) }
            return reached.value
        }
    }

    func testFiftyConcurrentIdenticalRequestsRunTheWorkOnce() async throws {
        let coalescer = TaskCoalescer<String, Int>()
        let work = HeldWork()
        let callers = Callers(count: 50)
        let tasks = callers.contexts.map { context in
            Task { try await coalescer.value(for: "same", context: context) { try await work.run($0, returning: 42) } }
        }
        // The work stays open until every caller waits on it.
        try await waitUntil("all 50 callers wait on the work") { callers.waiting(on: work).count == 50 }
        work.gate.open()
        var results: [Int] = []
        for task in tasks { results.append(try await task.value) }
        XCTAssertEqual(results, [Int](repeating: 42, count: 50))
        XCTAssertEqual(work.contexts.count, 1, "the work ran once for all 50")
        let inFlight = await coalescer.inFlightCount
        XCTAssertEqual(inFlight, 0)
    }

    func testDifferentKeysRunSeparatelyAndFailuresReachEveryWaiter() async throws {
        struct Failure: Error {}
        let coalescer = TaskCoalescer<Int, Int>()
        async let a = coalescer.value(for: 1, context: WorkContext(priority: .normal)) { _ in 1 }
        async let b = coalescer.value(for: 2, context: WorkContext(priority: .normal)) { _ in 2 }
        let values = try await [a, b]
        XCTAssertEqual(values, [1, 2])
        do {
            _ = try await coalescer.value(for: 3, context: WorkContext(priority: .normal)) { _ in throw Failure() }
            XCTFail("expected the failure")
        } catch is Failure {}
    }

    func testCancellingOneWaiterLeavesTheWorkForTheOthers() async throws {
        let coalescer = TaskCoalescer<String, Int>()
        let work = HeldWork()
        let callers = Callers(count: 2)
        let wasCancelled = Locked(false)
        let body: @Sendable (WorkContext) async throws -> Int = { context in
            let value = try await work.run(context, returning: 7)
            wasCancelled.withLock { $0 = Task.isCancelled }
            return value
        }
        let left = Arrivals()
        let leaving = Task {
            defer { left.arrive() }
            return try await coalescer.value(for: "k", context: callers.contexts[0], work: body)
        }
        let staying = Task { try await coalescer.value(for: "k", context: callers.contexts[1], work: body) }
        try await waitUntil("both callers wait on the work") { callers.waiting(on: work) == [0, 1] }
        leaving.cancel()
        // (Bounded, not awaited: a caller that waited for the work would wait for ever.)
        try await waitUntil("the cancelled caller returns while the work still runs") { left.count == 1 }
        do {
            _ = try await leaving.value
            XCTFail("a cancelled waiter must not get the value")
        } catch is CancellationError {}
        // It left at once, while the work still runs for the other.
        XCTAssertEqual(callers.waiting(on: work), [1], "the work's progress reaches only the caller that stayed")
        work.gate.open()
        let value = try await staying.value
        XCTAssertEqual(value, 7)
        XCTAssertEqual(work.contexts.count, 1, "the work ran once")
        XCTAssertFalse(wasCancelled.value, "the work was not cancelled")
    }

    func testWorkIsCancelledWhenEveryWaiterCancels() async throws {
        let coalescer = TaskCoalescer<String, Int>()
        let work = HeldWork()
        let callers = Callers(count: 2)
        let outcome = Locked<Result<Int, any Error>?>(nil)
        let ended = Arrivals()
        // The gate's wait ends with CancellationError when the work's task is cancelled.
        let body: @Sendable (WorkContext) async throws -> Int = { context in
            defer { ended.arrive() }
            do {
                let value = try await work.run(context, returning: 1)
                outcome.withLock { $0 = .success(value) }
                return value
            } catch {
                outcome.withLock { $0 = .failure(error) }
                throw error
            }
        }
        let left = Arrivals()
        func caller(_ index: Int) -> Task<Int, any Error> {
            Task {
                defer { left.arrive() }
                return try await coalescer.value(for: "k", context: callers.contexts[index], work: body)
            }
        }
        let first = caller(0), second = caller(1)
        try await waitUntil("both callers wait on the work") { callers.waiting(on: work) == [0, 1] }
        first.cancel()
        second.cancel()
        try await waitUntil("both cancelled callers return") { left.count == 2 }
        for task in [first, second] {
            do {
                _ = try await task.value
                XCTFail("a cancelled waiter must not get the value")
            } catch is CancellationError {}
        }
        let inFlight = await coalescer.inFlightCount
        XCTAssertEqual(inFlight, 0)
        // Opening the gate ends the work whether or not it was cancelled: cancelled, it has
        // already failed; not, it returns now.
        work.gate.open()
        await ended.wait(for: 1)
        XCTAssertThrowsError(try outcome.value?.get()) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        XCTAssertEqual(work.contexts.count, 1)
    }
}
