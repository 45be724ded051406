import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// The places of a loader's attempts to one server: `capacity` at once, the others started in
/// arrival order as places are left, each server apart.
final class ConnectionSlotsTests: XCTestCase {
    private static let origin = HTTPOrigin(URL(string: "http://images.example.com/a.jpg")!)
    private static let other = HTTPOrigin(URL(string: "http://other.example.com:8080/b.jpg")!)

    func testAttemptsPastTheCapacityStartInArrivalOrderAsPlacesAreLeft() async throws {
        let slots = ConnectionSlots(capacity: 4), origin = Self.origin, other = Self.other
        let started = Locked<[String]>([])
        func enter(_ name: String, _ origin: HTTPOrigin) {
            slots.enter(origin) { started.withLock { $0.append(name) } }
        }
        for index in 0..<4 { enter("running \(index)", origin) }
        XCTAssertEqual(started.value.count, 4, "the first four start at once, on the calling thread")
        for index in 0..<10 { enter("waiting \(index)", origin) }
        XCTAssertEqual(slots.waitingCount(for: origin), 10)
        enter("other server", other)
        XCTAssertEqual(started.value.last, "other server", "another server's attempts do not wait behind these")

        for index in 0..<10 {
            slots.leave(origin)
            try await waitUntil("waiting \(index) starts") { started.value.count == 6 + index }
            XCTAssertEqual(started.value.last, "waiting \(index)")
            XCTAssertEqual(slots.waitingCount(for: origin), 9 - index)
        }
        XCTAssertEqual(started.value.count, 15)
    }

    /// An attempt whose turn comes after it ended (cancelled or timed out while it waited) leaves
    /// at once, and the next one waiting starts.
    func testAnAttemptThatLeavesAsSoonAsItsTurnComesPassesItOn() async throws {
        let slots = ConnectionSlots(capacity: 1), origin = Self.origin
        let started = Locked<[String]>([])
        slots.enter(origin) { started.withLock { $0.append("running") } }
        slots.enter(origin) {
            started.withLock { $0.append("ended while waiting") }
            slots.leave(origin)
        }
        slots.enter(origin) { started.withLock { $0.append("next") } }
        slots.leave(origin)
        try await waitUntil("the next one starts") { started.value.count == 3 }
        XCTAssertEqual(started.value, ["running", "ended while waiting", "next"])
        XCTAssertEqual(slots.waitingCount(for: origin), 0)
        slots.leave(origin)
        // Every place is free again: capacity attempts start at once.
        slots.enter(origin) { started.withLock { $0.append("again") } }
        XCTAssertEqual(started.value.last, "again")
    }
}
