import Foundation
import ImgCache

/// What a serve URL asks for: the source and the `ImageRequest` to run for it, or, for a
/// wallpaper slice, the request that waits for the screenshot's size.
public struct ServeRequest: Sendable, Hashable {
    /// How the request is made.
    public enum Plan: Sendable, Hashable {
        /// The request to run as it is.
        case ready(ImageRequest)
        /// A wallpaper slice (`sl:`): its region follows from the screenshot's size, known once the
        /// original is fetched; `ServeSlice.request(screenshotSize:)` gives the request.
        case slice(ServeSlice)
    }

    /// The source image's URL: http or https, with a host.
    public let sourceURL: URL
    /// Ready, or waiting for the screenshot's size.
    public let plan: Plan
    /// `exp`'s Unix time: the URL is refused after that second. Nil (the default) for none.
    public let expires: Int?

    /// The latest `exp` taken: 253,402,300,799 (9999-12-31T23:59:59Z).
    public static let maxExpiry = 253_402_300_799

    /// The request when it needs no source size; nil for a slice.
    public var imageRequest: ImageRequest? {
        guard case .ready(let request) = plan else { return nil }
        return request
    }

    /// A request of `plan` for the image at `sourceURL` (for a server's tests; `ServeURLParser`
    /// makes them).
    public init(sourceURL: URL, plan: Plan, expires: Int? = nil) {
        self.sourceURL = sourceURL
        self.plan = plan
        self.expires = expires
    }

    /// The `max-age` of a response to this request at `now`: `ttl`, or the whole seconds left
    /// before `expires` when fewer (0 in its last second), as imgproxy's `exp` does.
    /// - Throws: `ServeURLError.expired` once `expires` has passed: from the second after it on.
    public func maxAge(ttl: Int, now: Date) throws(ServeURLError) -> Int {
        guard let expires else { return ttl }
        let seconds = now.timeIntervalSince1970
        guard seconds.rounded(.down) <= Double(expires) else { throw .expired(at: expires) }
        return min(ttl, max(0, Int((Double(expires) - seconds).rounded(.down))))
    }
}
