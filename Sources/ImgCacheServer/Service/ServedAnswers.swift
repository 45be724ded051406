import ImgCache
import Synchronization

/// The image answers `ImageService` gave at once lately, by request path (with the negotiated
/// format after it when serve negotiates formats, as `ImageService` keys them): a path asked for again
/// is answered from here while the pipeline says its variant is current
/// (`ImagePipeline.isStoredVariantCurrent`: one `stat`), which skips parsing the URL, resolving
/// the request, computing its cache keys and its tag. About 1 KB a path, for at most `limit`
/// paths; when full, an answer is dropped (any one: a dropped answer costs one slow answer).
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

    /// An answer served from a stored file, as the file was when its tag was computed (a class:
    /// one reference to copy out of the lock).
    private final class Entry: Sendable {
        let answer: Answer
        let variantKey: String
        let path: String
        let version: StoredFileVersion

        init(answer: Answer, variantKey: String, path: String, version: StoredFileVersion) {
            self.answer = answer
            self.variantKey = variantKey
            self.path = path
            self.version = version
        }
    }

    /// A dictionary rather than a `MemoryCache`: looked up on every answer, it is cheaper
    /// without the recency list (and specialised in this module).
    private let entries = Mutex<[String: Entry]>([:])
    private let limit: Int
    private let pipeline: ImagePipeline

    /// Keeps up to `limit` answers (default 10,000) of variants stored by `pipeline`.
    init(pipeline: ImagePipeline, limit: Int = 10_000) {
        self.pipeline = pipeline
        self.limit = max(1, limit)
    }

    /// The answer kept for `requestPath` when its variant is still current (then counted by the
    /// pipeline as a disk hit); nil otherwise (and it is dropped).
    func answer(for requestPath: String) -> Answer? {
        guard let entry = entries.withLock({ $0[requestPath] }) else { return nil }
        guard pipeline.isStoredVariantCurrent(variantKey: entry.variantKey, path: entry.path, version: entry.version) else {
            entries.withLock { entries in
                if entries[requestPath] === entry { entries[requestPath] = nil }
            }
            return nil
        }
        return entry.answer
    }

    /// Keeps `answer` for `requestPath`: `summary`'s variant, found on the disk, stored at `path`
    /// at `version` (the file its tag was computed from).
    func keep(_ answer: Answer, for requestPath: String, summary: ImageSummary, path: String, version: StoredFileVersion) {
        // A reload is never answered at once, so the summary's request is not kept.
        guard summary.cacheOutcome == .disk, summary.request.cachePolicy != .reload else { return }
        let entry = Entry(answer: answer, variantKey: summary.variantKey, path: path, version: version)
        entries.withLock { entries in
            if entries.count >= limit, entries[requestPath] == nil, let any = entries.keys.first { entries[any] = nil }
            entries[requestPath] = entry
        }
    }
}
