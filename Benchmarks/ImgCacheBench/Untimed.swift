import Dispatch
import Synchronization

/// Per-run preparation a scenario leaves out of its timing: the benchmark subtracts the time spent
/// in `Untimed.run` during a measured run from that run.
enum Untimed {
    private static let nanoseconds = Atomic<UInt64>(0)

    /// Runs `body`, adding its duration to the time to subtract.
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { nanoseconds.wrappingAdd(DispatchTime.now().uptimeNanoseconds - start, ordering: .relaxed) }
        return try body()
    }

    /// The untimed nanoseconds since the last call.
    static func take() -> UInt64 {
        nanoseconds.exchange(0, ordering: .relaxed)
    }
}
