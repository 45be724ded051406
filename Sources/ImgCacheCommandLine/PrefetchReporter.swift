import Foundation
import ImgCache
import Synchronization

/// Prints a prefetch's results as they come: with `--json`, each item of the summary's "items" at
/// once, and at the end the totals (or, without `--json`, the text summary). Keeps counts only.
final class PrefetchReporter: Sendable {
    private struct State {
        var summary = PrefetchSummary()
        var printedItems = 0
    }

    private let json: Bool
    private let progress: ProgressBar
    private let state = Mutex(State())

    init(json: Bool, progress: ProgressBar) {
        self.json = json
        self.progress = progress
        if json { Self.write("{\"items\":[") }
    }

    /// The failures so far.
    var failureCount: Int { state.withLock { $0.summary.failureCount } }
    /// The URLs (and targets) so far.
    var total: Int { state.withLock { $0.summary.total } }

    /// Counts and prints the result of a request for `source`.
    func report(_ result: Result<ImageSummary, any Error>, source: String) throws {
        let item = json ? try PrefetchSummary.jsonItem(result, source: source) : nil
        try record(item) { $0.add(result, source: source) }
    }

    /// Counts and prints a line refused before it reached the pipeline.
    func refuse(source: String, message: String) throws {
        let item = json ? try FetchReport.json(["url": source, "error": message]) : nil
        try record(item) { $0.addFailure(source: source, message: message) }
    }

    /// Prints the totals (and closes the JSON object).
    func finish() throws {
        progress.finish()
        let summary = state.withLock { $0.summary }
        if json { Self.write("]," + (try summary.jsonCounts()) + "}\n") } else { Self.write(summary.text() + "\n") }
    }

    private func record(_ item: String?, _ count: (inout PrefetchSummary) -> Void) throws {
        let done = state.withLock { state in
            count(&state.summary)
            if let item {
                Self.write((state.printedItems == 0 ? "" : ",") + item)
                state.printedItems += 1
            }
            return state.summary.total
        }
        progress.update(done)
    }

    private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
