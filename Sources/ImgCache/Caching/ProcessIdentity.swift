import Foundation
import Synchronization

/// A process told apart from a later one that reuses its id: the pid plus its start time in clock
/// ticks since boot (field 22 of `/proc/<pid>/stat`). Processes sharing a cache folder must share a
/// PID namespace (one host or container) for liveness checks to see each other.
struct ProcessIdentity: Hashable, Sendable {
    let pid: Int32
    let startTicks: Int

    /// This process.
    static let current: ProcessIdentity = {
        let pid = getpid()
        return ProcessIdentity(pid: pid, startTicks: status(of: pid)?.startTicks ?? 0)
    }()

    /// A name for a new temporary file, unique in this process and across processes:
    /// `<pid>-<start ticks>-<number>.tmp`. A cache sweep removes such a file from the cache's tmp/
    /// once the process that named it has ended.
    static func temporaryFileName() -> String {
        let number = temporaryFiles.wrappingAdd(1, ordering: .relaxed).newValue
        return "\(current.pid)-\(current.startTicks)-\(number).tmp"
    }

    private static let temporaryFiles = Atomic<Int>(0)

    /// True while the process runs: its pid exists, is not a zombie, and started at `startTicks`.
    var isAlive: Bool {
        guard let status = Self.status(of: pid) else { return false }
        return !status.isZombie && status.startTicks == startTicks
    }

    /// The process state and start time read from `/proc/<pid>/stat`, or nil when there is no such process.
    private static func status(of pid: Int32) -> (isZombie: Bool, startTicks: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let commandEnd = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (command) " come field 3 (state) onwards; start time is field 22.
        let fields = text[text.index(after: commandEnd)...].split(separator: " ")
        guard fields.count > 19, let startTicks = Int(fields[19]) else { return nil }
        return (fields[0] == "Z" || fields[0] == "X", startTicks)
    }
}
