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

    /// The request when it needs no source size; nil for a slice.
    public var imageRequest: ImageRequest? {
        guard case .ready(let request) = plan else { return nil }
        return request
    }

    /// A request of `plan` for the image at `sourceURL` (for a server's tests; `ServeURLParser`
    /// makes them).
    public init(sourceURL: URL, plan: Plan) {
        self.sourceURL = sourceURL
        self.plan = plan
    }
}
