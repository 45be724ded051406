import Foundation
import Synchronization

/// A one-line progress bar on standard error, redrawn in place (a count alone when the total is
/// not known); silent when not enabled (when standard error is not a terminal).
final class ProgressBar: Sendable {
    private let total: Int?
    private let enabled: Bool
    private let lastDrawn = Mutex(-1)

    init(total: Int?, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    /// Shows `done` of `total`.
    func update(_ done: Int) {
        guard enabled else { return }
        guard let total else {
            // Every 100th count, so that a long list is not slowed by redrawing.
            if done % 100 == 0 { FileHandle.standardError.write(Data("\r\(done) done".utf8)) }
            return
        }
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let changed = lastDrawn.withLock { last in
            defer { last = filled }
            return last != filled || done == total
        }
        guard changed else { return }
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
    }

    /// Ends the line the bar was drawn on.
    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
