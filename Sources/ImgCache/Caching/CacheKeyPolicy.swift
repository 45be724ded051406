import Foundation

/// How the key of an original is made from its URL, so that URLs that differ only in a signature
/// or an expiry date share one original, its variants and its Redis values: presigned object-store
/// and CDN URLs (S3's `X-Amz-Signature` and `X-Amz-Date`, CloudFront's `Signature` and `Expires`,
/// Imgix's `s`) name the same bytes with a new query each time.
///
/// The key is the URL without its fragment and without the query items `ignoredQueryItems`
/// names (the others keep their order and their encoding as written), then given to `transform`
/// when there is one. The download always uses the full URL.
public struct CacheKeyPolicy: Sendable {
    /// Names of query items left out of keys, compared case-insensitively after percent-decoding;
    /// a name ending in `*` is a prefix (`X-Amz-*`). Default []: every item counts.
    public var ignoredQueryItems: [String] {
        didSet { patterns = Self.patterns(ignoredQueryItems) }
    }
    /// Makes the key from the URL once the ignored items are gone, for anything else (a path
    /// segment that holds a version, say). Its result must name the bytes: two URLs with one key
    /// share one stored original. Default nil.
    public var transform: (@Sendable (URL) -> String)?

    private var patterns: [(name: String, isPrefix: Bool)]

    /// A policy that leaves out the query items `ignoredQueryItems` names (default none) and then
    /// applies `transform` (default nil). `ImagePipeline` refuses a policy `validate()` rejects.
    public init(ignoredQueryItems: [String] = [], transform: (@Sendable (URL) -> String)? = nil) {
        self.ignoredQueryItems = ignoredQueryItems
        self.transform = transform
        patterns = Self.patterns(ignoredQueryItems)
    }

    /// Throws `invalidArgument` for an empty name, or a `*` anywhere but at the end.
    public func validate() throws {
        for name in ignoredQueryItems {
            let stem = name.hasSuffix("*") ? String(name.dropLast()) : name
            guard !stem.isEmpty, !stem.contains("*") else {
                throw ImgCacheError.invalidArgument("ignored query item '\(name)' must be a name, or a name's start and '*'")
            }
        }
    }

    /// The original's key for `url`: see the type's description. Like `CacheKey.originalKey(for:)`
    /// it holds no "#", so it cannot reach the variants' key space.
    public func key(for url: URL) -> String {
        var key = CacheKey.originalKey(for: url)
        if !patterns.isEmpty { key = Self.dropping(patterns, from: key) }
        guard let transform else { return key }
        let made = transform(URL(string: key) ?? url)
        return CacheKey.originalKey(custom: made)
    }

    /// `key` (a URL without fragment) with the query items that match `patterns` removed, and the
    /// "?" too when none is left.
    private static func dropping(_ patterns: [(name: String, isPrefix: Bool)], from key: String) -> String {
        guard let mark = key.firstIndex(of: "?") else { return key }
        let items = key[key.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
        let kept = items.filter { item in
            let rawName = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let name = (String(rawName).removingPercentEncoding ?? String(rawName)).lowercased()
            return !patterns.contains { $0.isPrefix ? name.hasPrefix($0.name) : name == $0.name }
        }
        let base = String(key[..<mark])
        return kept.isEmpty ? base : base + "?" + kept.joined(separator: "&")
    }

    private static func patterns(_ names: [String]) -> [(name: String, isPrefix: Bool)] {
        names.map { name in
            name.hasSuffix("*") ? (String(name.dropLast()).lowercased(), true) : (name.lowercased(), false)
        }
    }
}
