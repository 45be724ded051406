import Foundation

/// What to load, the validators of a stored copy when revalidating it, the headers to send, and
/// who to tell how the load goes.
public struct DataRequest: Sendable {
    /// An http or https URL (file URLs only where the loader allows them).
    public var url: URL
    /// The stored copy's validators; when not empty, the request is a conditional GET
    /// (`If-None-Match`, `If-Modified-Since`) and may be answered with 304 Not Modified.
    public var validators: HTTPValidators
    /// Headers sent with this request, on top of `DataLoader.Configuration.headers`: one of the
    /// same name (compared case-insensitively) replaces the configuration's, and a `User-Agent` or
    /// `Accept` here replaces the loader's own. Checked by `HTTPHeaderField`'s rules when the load
    /// starts: a header that breaks them, or two names that differ only in case, fail the load
    /// with `invalidArgument` before any request is sent. `Authorization`, `Cookie` and
    /// `Proxy-Authorization` go only to the origin (scheme, host and port) of `url`: a redirect to
    /// another origin drops them, and a redirect back to it sends them again; the other headers go
    /// with every redirect. Ignored for `file://` URLs (but still checked). Default empty.
    public var headers: [String: String]
    /// Told how the load goes (see `DataLoadEvent`), one event at a time, in order. It is called on
    /// the loader's threads, some of which also carry the load's body and other loads' callbacks,
    /// so it must return quickly and never block or wait. No event comes after the load has returned
    /// or thrown. Not part of the request's equality or hash. Default nil.
    public var observer: (@Sendable (DataLoadEvent) -> Void)?

    /// A request for `url`, with each other value at the default its property states unless given.
    public init(
        url: URL, validators: HTTPValidators = HTTPValidators(), headers: [String: String] = [:],
        observer: (@Sendable (DataLoadEvent) -> Void)? = nil
    ) {
        self.url = url
        self.validators = validators
        self.headers = headers
        self.observer = observer
    }
}

/// Written by hand to leave `observer` out: a closure has no equality, and two requests that
/// differ only in who watches them ask the server for the same thing.
extension DataRequest: Hashable {
    public static func == (lhs: DataRequest, rhs: DataRequest) -> Bool {
        lhs.url == rhs.url && lhs.validators == rhs.validators && lhs.headers == rhs.headers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(validators)
        hasher.combine(headers)
    }
}
