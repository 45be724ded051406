import ImgCache

/// The image answers `ImageService` gave at once lately, by request path: a path asked for again
/// is answered from here while the pipeline says its variant is current
/// (`ImagePipeline.isStoredVariantCurrent`: one `stat`), which skips parsing the URL, resolving
/// the request, computing its cache keys and its tag. About 1 KB a path, for at most `limit`
/// paths, least recently used dropped first.
final class ServedAnswers: Sendable {
    /// An image response before `If-None-Match` is looked at: 200 with the body, or 304 without.
    struct Answer: Sendable {
        /// Content-Type, Cache-Control and, when there is one, ETag.
        let headers: HTTPHeaders
        let tag: String?
        let body: HTTPResponse.Body
        /// The variant's cache outcome, for the access log.
        let note: String

        /// 304 when `ifNoneMatch` names the tag, else 200 with the body.
        func response(ifNoneMatch: String?) -> HTTPResponse {
            if let tag, let ifNoneMatch, EntityTags.matches(ifNoneMatch, tag) {
                return HTTPResponse(status: 304, headers: headers, note: note)
            }
            return HTTPResponse(status: 200, headers: headers, body: body, note: note)
        }
    }

    /// An answer served from a stored file, as the file was when its tag was computed.
    private struct Entry: Sendable {
        let answer: Answer
        let summary: ImageSummary
        let path: String
        let version: StoredFileVersion
    }

    private let entries: MemoryCache<String, Entry>
    private let pipeline: ImagePipeline

    /// Keeps up to `limit` answers (default 10,000) of variants stored by `pipeline`.
    init(pipeline: ImagePipeline, limit: Int = 10_000) {
        self.pipeline = pipeline
        entries = MemoryCache(costLimit: limit, maxEntryShare: 1)
    }

    /// The answer kept for `requestPath` when its variant is still current (then counted by the
    /// pipeline as a disk hit); nil otherwise (and it is dropped).
    func answer(for requestPath: String) -> Answer? {
        guard let entry = entries.value(for: requestPath) else { return nil }
        guard pipeline.isStoredVariantCurrent(entry.summary, path: entry.path, version: entry.version) else {
            entries.removeValue(for: requestPath)
            return nil
        }
        return entry.answer
    }

    /// Keeps `answer` for `requestPath`: `summary`'s variant, found on the disk, stored at `path`
    /// at `version` (the file its tag was computed from).
    func keep(_ answer: Answer, for requestPath: String, summary: ImageSummary, path: String, version: StoredFileVersion) {
        guard summary.cacheOutcome == .disk else { return }
        entries.set(Entry(answer: answer, summary: summary, path: path, version: version), for: requestPath, cost: 1)
    }
}
