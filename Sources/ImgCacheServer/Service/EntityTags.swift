import Foundation
import Glibc
import ImgCache

/// Strong entity tags for served variants: `"md5(variant key)-md5(bytes)"`, the same on every
/// instance for the same bytes (JPEG, PNG and GIF encoding is deterministic), so that a client's
/// `If-None-Match` holds behind a load balancer. A stored file's tag is computed once per file
/// (keyed by its path, size and modification time) and kept for `limit` files.
final class EntityTags: Sendable {
    private let tags: MemoryCache<String, String>

    /// Keeps the tags of about `limit` files (default 100,000, a few MB).
    init(limit: Int = 100_000) {
        tags = MemoryCache(costLimit: limit, maxEntryShare: 1)
    }

    /// The tag of `summary`'s variant, read from its file (at `path`, its `fileURL`'s) or its
    /// bytes; nil when the file cannot be read.
    func tag(for summary: ImageSummary, path: String?) -> String? {
        if let data = summary.unstoredData { return "\"\(MD5.hexDigest(of: summary.variantKey))-\(MD5.hexDigest(of: data))\"" }
        guard let path else { return nil }
        // A stat names the file's bytes as they are now: a re-rendered variant is a new file.
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let identity = "\(path) \(status.st_size) \(status.st_ino) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        if let tag = tags.value(for: identity) { return tag }
        guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        let tag = "\"\(MD5.hexDigest(of: summary.variantKey))-\(MD5.hexDigest(of: bytes))\""
        tags.set(tag, for: identity, cost: 1)
        return tag
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
