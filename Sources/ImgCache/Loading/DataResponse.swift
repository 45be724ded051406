import Foundation

/// A successful load: a 2xx response with its body, or a 304 Not Modified for a conditional request.
public struct DataResponse: Sendable, Hashable {
    /// The URL the bytes came from, after any redirects.
    public var url: URL
    /// The final HTTP status: 2xx or 304 (200 for a local file).
    public var statusCode: Int
    /// The body; empty for a 304, whose stored bytes stay valid.
    public var data: Data
    /// The `Content-Type` header, as sent. Formats are told from the bytes, never from this.
    public var contentType: String?
    /// The response's validators, to store with the bytes. For a 304, a validator the server did
    /// not repeat is the one the request sent.
    public var validators: HTTPValidators
    /// How long the bytes may be used without revalidating; for a 304, the stored copy's new expiry.
    public var freshness: HTTPFreshness
    /// Attempts made, 1 when the first one succeeded.
    public var attempts: Int
    /// The file `data` is mapped from, when the body was larger than the loader keeps in memory
    /// (`DataLoader.Configuration.maxBodyBytesInMemory`): a cache can move it into place.
    var spilledBody: SpilledBody?

    /// A response as a loader reports it; `contentType` default nil, `validators` default none,
    /// `attempts` default 1.
    public init(
        url: URL, statusCode: Int, data: Data, contentType: String? = nil,
        validators: HTTPValidators = HTTPValidators(), freshness: HTTPFreshness, attempts: Int = 1
    ) {
        self.url = url
        self.statusCode = statusCode
        self.data = data
        self.contentType = contentType
        self.validators = validators
        self.freshness = freshness
        self.attempts = attempts
    }

    /// True for 304 Not Modified: keep the stored bytes and take the new `freshness`.
    public var isNotModified: Bool { statusCode == 304 }
}
