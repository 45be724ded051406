import Foundation
import ImgCache

/// What a prefetch did, URL by URL, and its totals.
struct PrefetchSummary {
    let sources: [String]
    let results: [Result<ImageSummary, any Error>]

    var failureCount: Int { results.filter { if case .failure = $0 { true } else { false } }.count }

    private func count(_ outcome: CacheOutcome) -> Int {
        results.filter { if case .success(let response) = $0 { response.cacheOutcome == outcome } else { false } }.count
    }

    /// One line of totals (requests that shared one download all count as from the network), then
    /// every failure.
    func text() -> String {
        var lines = ["prefetched \(results.count - failureCount) of \(results.count): \(count(.network)) from the network, "
            + "\(count(.revalidated)) revalidated, \(count(.disk) + count(.memory)) already cached, \(failureCount) failed"
            + (count(.shared) > 0 ? ", \(count(.shared)) from Redis" : "")]
        for (source, result) in zip(sources, results) {
            if case .failure(let error) = result { lines.append("  failed \(source): \(ExitStatus.describing(error).message)") }
        }
        return lines.joined(separator: "\n")
    }

    func json() throws -> String {
        let items: [[String: Any]] = zip(sources, results).map { source, result in
            switch result {
            case .success(let response):
                return FetchReport(path: response.fileURL?.path ?? "", response: response).object()
            case .failure(let error):
                return ["url": source, "error": ExitStatus.describing(error).message]
            }
        }
        let object: [String: Any] = [
            "total": results.count, "failed": failureCount, "network": count(.network),
            "revalidated": count(.revalidated), "cached": count(.disk) + count(.memory),
            "shared": count(.shared), "items": items,
        ]
        return try FetchReport.json(object)
    }
}
