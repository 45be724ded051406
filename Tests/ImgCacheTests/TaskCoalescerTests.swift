import XCTest
@testable import ImgCache

final class TaskCoalescerTests: XCTestCase {
    /// Counts how often the shared work ran.
    private actor Counter {
        var count = 0
        func increment() { count += 1 }
    }

    func testFiftyConcurrentIdenticalRequestsRunTheWorkOnce() async throws {
        let coalescer = TaskCoalescer<String, Int>()
        let counter = Counter()
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await coalescer.value(for: "same", context: WorkContext(priority: .normal)) { _ in
                        await counter.increment()
                        try await Task.sleep(nanoseconds: 100_000_000)
                        return 42
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(results, [Int](repeating: 42, count: 50))
        let runs = await counter.count
        XCTAssertEqual(runs, 1)
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
        let counter = Counter()
        let work: @Sendable (WorkContext) async throws -> Int = { _ in
            await counter.increment()
            try await Task.sleep(nanoseconds: 300_000_000)
            return 7
        }
        let leaving = Task { try await coalescer.value(for: "k", context: WorkContext(priority: .normal), work: work) }
        let staying = Task { try await coalescer.value(for: "k", context: WorkContext(priority: .normal), work: work) }
        try await Task.sleep(nanoseconds: 50_000_000)
        leaving.cancel()
        do {
            _ = try await leaving.value
            XCTFail("a cancelled waiter must not get the value")
        } catch is CancellationError {}
        let value = try await staying.value
        XCTAssertEqual(value, 7)
        let runs = await counter.count
        XCTAssertEqual(runs, 1)
    }

    func testWorkIsCancelledWhenEveryWaiterCancels() async throws {
        let coalescer = TaskCoalescer<String, Int>()
        let sawCancellation = expectation(description: "work cancelled")
        let work: @Sendable (WorkContext) async throws -> Int = { _ in
            do {
                try await Task.sleep(nanoseconds: 5_000_000_000)
            } catch {
                sawCancellation.fulfill()
                throw error
            }
            return 1
        }
        let first = Task { try await coalescer.value(for: "k", context: WorkContext(priority: .normal), work: work) }
        let second = Task { try await coalescer.value(for: "k", context: WorkContext(priority: .normal), work: work) }
        try await Task.sleep(nanoseconds: 50_000_000)
        first.cancel()
        second.cancel()
        await fulfillment(of: [sawCancellation], timeout: 2)
        let inFlight = await coalescer.inFlightCount
        XCTAssertEqual(inFlight, 0)
    }
}
