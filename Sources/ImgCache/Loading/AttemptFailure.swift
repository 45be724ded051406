import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why one attempt of a load failed: the error a caller sees, and whether trying again may help.
struct AttemptFailure: Error {
    var error: ImgCacheError
    var isRetryable: Bool
    /// The server's `Retry-After`, in seconds, when it sent one.
    var retryAfter: TimeInterval?
    /// Set when URLSession ended the attempt in failure by itself: no response could be read, or
    /// its body was shorter or longer than its `Content-Length`, or broke off. Whatever another
    /// connection to that server holds may answer no request either, so `LoaderSessions` retires
    /// the shared session when one can be to blame. Nil for every other failure.
    var framingAnomaly: FramingAnomaly?

    /// Where a response's framing broke, for `LoaderSessions` to tell whether a connection it
    /// kept can be to blame.
    struct FramingAnomaly {
        /// The server of the attempt's last hop (the first URL's, or the last redirect's).
        var origin: HTTPOrigin
        /// The attempt never had a connection to it: refused, or the host not found (see
        /// `isConnectFailure(_:)`), so no connection that had carried a response is to blame.
        var couldNotConnect: Bool
    }

    /// A status that is not a success: 429 and 5xx may pass, every other status will not.
    static func status(_ code: Int, url: URL, headers: [String: String]) -> AttemptFailure {
        let retryAfter = headers["retry-after"].flatMap {
            RetryPolicy.retryAfter($0, served: headers["date"].flatMap { HTTPDate.parse($0) }, now: Date())
        }
        return AttemptFailure(
            error: .httpStatus(code: code, url: url.absoluteString),
            isRetryable: code == 429 || (500...599).contains(code), retryAfter: retryAfter)
    }

    /// A connection-level failure worth retrying (refused, reset, truncated...).
    static func connection(_ url: URL, _ detail: String) -> AttemptFailure {
        AttemptFailure(error: .network(url: url.absoluteString, detail: detail), isRetryable: true)
    }

    /// A network failure that will happen again (too many redirects, a bad certificate...).
    static func permanent(_ url: URL, _ detail: String) -> AttemptFailure {
        AttemptFailure(error: .network(url: url.absoluteString, detail: detail), isRetryable: false)
    }

    /// Whether URLSession's `error` says the attempt got no connection: refused (FoundationNetworking
    /// reports so any transfer whose connect ended in ECONNREFUSED, including libcurl's own new
    /// connect after a kept-alive connection turned out closed) or the host not found. Such an
    /// attempt's failure is no kept-alive connection's fault. (A failed TLS handshake comes as an
    /// unknown error, like a failure on an open connection: see `LoaderSessions` for that one.)
    static func isConnectFailure(_ error: Error) -> Bool {
        switch (error as? URLError)?.code {
        case .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?: true
        default: false
        }
    }

    /// The failure URLSession reported, when the loader did not end the transfer itself.
    /// `timeout` is the time-out to report if URLSession's own timer fired.
    static func urlSession(_ error: Error, url: URL, timeout: TimeInterval) -> AttemptFailure {
        guard let error = error as? URLError else {
            return .permanent(url, "\(error)")
        }
        switch error.code {
        case .timedOut:
            return AttemptFailure(error: .timeout(url: url.absoluteString, seconds: timeout), isRetryable: false)
        case .cannotConnectToHost: return .connection(url, "cannot connect to host (\(error.localizedDescription))")
        case .networkConnectionLost: return .connection(url, "connection lost (\(error.localizedDescription))")
        case .cannotFindHost, .dnsLookupFailed: return .connection(url, "host not found (\(error.localizedDescription))")
        case .notConnectedToInternet, .cannotLoadFromNetwork, .resourceUnavailable, .badServerResponse,
             .zeroByteResource, .cannotParseResponse:
            return .connection(url, error.localizedDescription)
        case .unsupportedURL:
            // libcurl's CURLE_UNSUPPORTED_PROTOCOL: only http and https URLs reach URLSession, so
            // this is a reply that is no HTTP ("Received HTTP/0.9 when not allowed"), such as
            // bytes a previous response left on a reused connection.
            return .connection(url, "not an HTTP response (\(error.localizedDescription))")
        default:
            return .permanent(url, error.localizedDescription)
        }
    }
}
