import Foundation
import ImgCache
import Synchronization

/// `imgcache serve`'s `/info/SIGNATURE/OPTIONS/SOURCE` (imgproxy's info URL, signed the same way
/// as an image URL over what follows the signature): a JSON object with the source's facts under
/// imgproxy's names (`format`, `width`, `height`, `size` in bytes) and `frames`, `orientation`,
/// `icc_profile`; the variant the options prepare (`variant`: `format`, `width`, `height`,
/// `size`, `frames`); and the facts of its pixels (`average`, `dominant_colors`, `blurhash`,
/// `thumbhash`, `legibility`, see `ImageFacts`). The facts are the pipeline's
/// (`ImagePipeline.facts(for:)`: computed once per variant, kept beside it); an answer is kept
/// by path while its variant is current, as an image answer is (not for an expiring URL, whose
/// max-age shrinks). The variant is in the format the
/// URL names (automatic without one), never negotiated from `Accept`, and no fallback image
/// stands in for a source that fails. Served with `Cache-Control: public, max-age=TTL` (what is
/// left of an expiring URL's time) and a strong ETag of the body (`If-None-Match` gives 304).
final class InfoService: Sendable {
    /// Where info paths start; what follows from its last "/" is an image URL's path.
    static let prefix = "/info/"

    /// An answer given, with the variant file it describes as it was.
    private struct Kept: Sendable {
        let headers: HTTPHeaders
        let tag: String
        let body: [UInt8]
        let note: String
        let variantKey: String
        let path: String
        let version: StoredFileVersion
    }

    private let pipeline: ImagePipeline
    /// Answers by request path, about 2 KB each, at most `limit`; when full, any one is dropped.
    private let kept = Mutex<[String: Kept]>([:])
    private let limit: Int

    /// Answers for `pipeline`'s variants; keeps up to `limit` answers (default 10,000).
    init(pipeline: ImagePipeline, limit: Int = 10_000) {
        self.pipeline = pipeline
        self.limit = max(1, limit)
    }

    /// The image URL path an info path holds ("/SIGNATURE/OPTIONS/SOURCE"), nil for any other path.
    static func imagePath(_ path: String) -> String? {
        path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count - 1)) : nil
    }

    /// The answer kept for the info path `path` while its variant is current (counted by the
    /// pipeline as a disk hit); nil otherwise.
    func keptResponse(for path: String, ifNoneMatch: String?) -> HTTPResponse? {
        guard let entry = kept.withLock({ $0[path] }) else { return nil }
        guard pipeline.isStoredVariantCurrent(variantKey: entry.variantKey, path: entry.path, version: entry.version) else {
            kept.withLock { $0[path] = nil }
            return nil
        }
        return Self.response(headers: entry.headers, tag: entry.tag, body: entry.body, note: CacheOutcome.disk.rawValue, ifNoneMatch: ifNoneMatch)
    }

    /// The info of the variant `request` prepares from the image at `sourceURL`, for the info path
    /// `path`, with the `max-age` `maxAge` gives once it is ready (the server's TTL, or what is
    /// left of an expiring URL's); kept for the path only when `keeps`.
    /// - Throws: what the pipeline throws for the request, and what `maxAge` throws (see
    ///   `ErrorStatus` for the statuses).
    func respond(
        path: String, request: ImageRequest, sourceURL: URL, maxAge: () throws -> Int, keeps: Bool, ifNoneMatch: String?
    ) async throws -> HTTPResponse {
        let variant = try await pipeline.facts(for: request)
        let original = try await pipeline.data(for: sourceURL)
        var fields = try ImageDecoder.inspect(.data(original.data)).jsonFields
        fields["size"] = original.data.count
        let summary = variant.summary
        fields["variant"] = [
            "format": summary.format.rawValue, "width": summary.pixelSize.width, "height": summary.pixelSize.height,
            "size": summary.byteCount, "frames": summary.frameCount,
        ]
        fields.merge(try variant.facts.jsonFields()) { _, facts in facts }
        let body = [UInt8](try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]))
        let tag = "\"\(MD5.hexDigest(of: Data(body)))\""
        let headers: HTTPHeaders = [
            "Content-Type": "application/json", "Cache-Control": "public, max-age=\(try maxAge())", "ETag": tag,
        ]
        if keeps, summary.cacheOutcome == .disk, request.cachePolicy != .reload, let file = summary.fileURL?.path,
           let version = StoredFileVersion(path: file)
        {
            keep(
                Kept(headers: headers, tag: tag, body: body, note: summary.cacheOutcome.rawValue, variantKey: summary.variantKey, path: file, version: version),
                for: path)
        }
        return Self.response(headers: headers, tag: tag, body: body, note: summary.cacheOutcome.rawValue, ifNoneMatch: ifNoneMatch)
    }

    private func keep(_ entry: Kept, for path: String) {
        kept.withLock { kept in
            if kept.count >= limit, kept[path] == nil, let any = kept.keys.first { kept[any] = nil }
            kept[path] = entry
        }
    }

    /// 304 when `ifNoneMatch` names `tag`, else 200 with `body`; `note` (the variant's cache
    /// outcome) for the access log.
    private static func response(headers: HTTPHeaders, tag: String, body: [UInt8], note: String, ifNoneMatch: String?) -> HTTPResponse {
        if let ifNoneMatch, EntityTags.matches(ifNoneMatch, tag) { return HTTPResponse(status: 304, headers: headers, note: note) }
        return HTTPResponse(status: 200, headers: headers, body: .bytes(body), note: note)
    }
}
