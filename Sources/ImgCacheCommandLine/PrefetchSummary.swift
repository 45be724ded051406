import Foundation
import ImgCache

/// What a prefetch did, kept as counts however long the list: the totals by cache outcome, and
/// the first `maxListedFailures` failures (100) as examples.
struct PrefetchSummary {
    static let maxListedFailures = 100

    private(set) var total = 0
    private(set) var failureCount = 0
    private var outcomes: [CacheOutcome: Int] = [:]
    private var listedFailures: [String] = []

    /// Counts a request's result; `source` names it in a failure.
    mutating func add(_ result: Result<ImageSummary, any Error>, source: String) {
        switch result {
        case .success(let summary):
            total += 1
            outcomes[summary.cacheOutcome, default: 0] += 1
        case .failure(let error): addFailure(source: source, message: ExitStatus.describing(error).message)
        }
    }

    /// Counts a failure that never reached the pipeline (a line refused).
    mutating func addFailure(source: String, message: String) {
        total += 1
        failureCount += 1
        if listedFailures.count < Self.maxListedFailures { listedFailures.append("  failed \(source): \(message)") }
    }

    private func count(_ outcome: CacheOutcome) -> Int { outcomes[outcome] ?? 0 }

    /// One line of totals (requests that shared one download all count as from the network), then
    /// the first failures, and how many more there were.
    func text() -> String {
        var lines = ["prefetched \(total - failureCount) of \(total): \(count(.network)) from the network, "
            + "\(count(.revalidated)) revalidated, \(count(.disk) + count(.memory)) already cached, \(failureCount) failed"
            + (count(.shared) > 0 ? ", \(count(.shared)) from Redis" : "")]
        lines += listedFailures
        if failureCount > listedFailures.count { lines.append("  ... and \(failureCount - listedFailures.count) more failed") }
        return lines.joined(separator: "\n")
    }

    /// The counts as the members of the JSON summary that follow its "items".
    func jsonCounts() throws -> String {
        let object: [String: Any] = [
            "total": total, "failed": failureCount, "network": count(.network),
            "revalidated": count(.revalidated), "cached": count(.disk) + count(.memory), "shared": count(.shared),
        ]
        // The members of one object, without its braces, to close the object "items" opened.
        return String(try FetchReport.json(object).dropFirst().dropLast())
    }

    /// One item of the JSON summary's "items": the variant's report, or the source and its error.
    static func jsonItem(_ result: Result<ImageSummary, any Error>, source: String) throws -> String {
        switch result {
        case .success(let response): return try FetchReport(path: response.fileURL?.path ?? "", response: response).json()
        case .failure(let error): return try FetchReport.json(["url": source, "error": ExitStatus.describing(error).message])
        }
    }
}
