import Foundation
import ImgCache

/// Strong entity tags for served variants: `"md5(variant key)-md5(bytes)"`, the same on every
/// instance for the same bytes (JPEG, PNG and GIF encoding is deterministic), so that a client's
/// `If-None-Match` holds behind a load balancer. A stored file's tag is computed once per file
/// (keyed by its path and `StoredFileVersion`) and kept for `limit` files.
final class EntityTags: Sendable {
    /// A stored file as it was when its tag was computed.
    private struct FileKey: Hashable, Sendable {
        let path: String
        let version: StoredFileVersion
    }

    private let tags: MemoryCache<FileKey, String>

    /// Keeps the tags of about `limit` files (default 100,000, a few MB).
    init(limit: Int = 100_000) {
        tags = MemoryCache(costLimit: limit, maxEntryShare: 1)
    }

    /// The tag of `summary`'s variant, read from its file (at `path`, its `fileURL`'s) or its
    /// bytes, with the version of the file it was computed for (nil for bytes); nil when the
    /// file cannot be read.
    func tag(for summary: ImageSummary, path: String?) -> (tag: String, version: StoredFileVersion?)? {
        if let data = summary.unstoredData { return ("\"\(MD5.hexDigest(of: summary.variantKey))-\(MD5.hexDigest(of: data))\"", nil) }
        // A stat names the file's bytes as they are now: a re-rendered variant is a new file.
        guard let path, let version = StoredFileVersion(path: path) else { return nil }
        let key = FileKey(path: path, version: version)
        if let tag = tags.value(for: key) { return (tag, version) }
        guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        let tag = "\"\(MD5.hexDigest(of: summary.variantKey))-\(MD5.hexDigest(of: bytes))\""
        tags.set(tag, for: key, cost: 1)
        return (tag, version)
    }

    /// True when `header` (an `If-None-Match` value: `*` or a list of tags, weak ones compared
    /// weakly as RFC 9110 says for this header) names `tag`.
    static func matches(_ header: String, _ tag: String) -> Bool {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return true }
        return trimmed.split(separator: ",").contains { candidate in
            var value = candidate.trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("W/") { value.removeFirst(2) }
            return value == tag
        }
    }
}
