/// The validators of a stored response, sent back in a conditional GET so that the server can
/// answer 304 Not Modified instead of the body. Kept exactly as the server sent them.
public struct HTTPValidators: Sendable, Hashable {
    /// The `ETag` header (strong or weak, quotes included), sent back as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` header, sent back as `If-Modified-Since`.
    public var lastModified: String?

    /// Validators of these header values, each nil (absent) by default.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// True when there is nothing to revalidate with: the request is an ordinary GET.
    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// The validators among `headers` (names in lower case).
    init(headers: [String: String]) {
        self.init(etag: headers["etag"], lastModified: headers["last-modified"])
    }

    /// These validators, or for each one that is missing, the one in `stored`: a 304 need not
    /// repeat the validators the request sent.
    func filled(from stored: HTTPValidators) -> HTTPValidators {
        HTTPValidators(etag: etag ?? stored.etag, lastModified: lastModified ?? stored.lastModified)
    }
}
