import Foundation

/// What to load, and the validators of a stored copy when revalidating it.
public struct DataRequest: Sendable, Hashable {
    /// An http or https URL (file URLs only where the loader allows them).
    public var url: URL
    /// The stored copy's validators; when not empty, the request is a conditional GET
    /// (`If-None-Match`, `If-Modified-Since`) and may be answered with 304 Not Modified.
    public var validators: HTTPValidators

    public init(url: URL, validators: HTTPValidators = HTTPValidators()) {
        self.url = url
        self.validators = validators
    }
}
