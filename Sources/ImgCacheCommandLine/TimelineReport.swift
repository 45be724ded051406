import ImgCache

/// What a prepared image takes of a widget timeline's memory: its decoded frames
/// (`width x height x 4` bytes each) for one entry, times the entries, against the extension's
/// limit less its reserve.
struct TimelineReport {
    let budget: TimelineBudget
    let bytesPerEntry: Int

    init(_ budget: TimelineBudget, size: PixelSize, frames: Int) {
        self.budget = budget
        bytesPerEntry = size.area * 4 * frames
    }

    var totalBytes: Int { bytesPerEntry * budget.entries }
    /// True when the entries and the reserve fit the limit.
    var fits: Bool { totalBytes + budget.memory.reserveBytes <= budget.memory.limitBytes }

    /// `timeline: 8 entries x 2621440 bytes = 20971520 of 31457280 bytes (widgetkit, 10485760 reserved)`.
    var line: String {
        "timeline: \(budget.entries) entries x \(bytesPerEntry) bytes = \(totalBytes) of \(budget.memory.limitBytes) bytes"
            + " (\(budget.memory.rawValue), \(budget.memory.reserveBytes) reserved)"
    }

    /// The `--json` object.
    func object() -> [String: Any] {
        [
            "extension": budget.memory.rawValue, "entries": budget.entries, "entry_budget_bytes": budget.bytesPerEntry,
            "bytes_per_entry": bytesPerEntry, "total_bytes": totalBytes, "limit_bytes": budget.memory.limitBytes,
            "reserve_bytes": budget.memory.reserveBytes, "fits": fits,
        ]
    }
}
