import Foundation

/// An image prepared in place of a request's source when the source fails (imgproxy's fallback
/// image): the same request, its target, format, processors and every other option, of another
/// URL. Its original and its variants are cached under keys of that URL and the options, never
/// under the failed source's, so that a source that comes back is served again at once. See
/// `ImagePipeline.prepare(_:fallback:)`.
public struct ImageFallback: Sendable, Hashable {
    /// The fallback image: an http or https URL, or a file URL (where the pipeline reads files:
    /// `DataLoader.Configuration.allowsFileURLs`).
    public let url: URL

    /// The fallback image at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// True when a fallback stands in for `error`, a failure of the source itself: it could not be
    /// fetched (an HTTP error status, a network failure, a time-out, a refused URL, a download over
    /// the byte limit) or read (not an image, corrupt, over a pixel limit or a timeline's entry budget). False for everything
    /// else: bad options (they would fail the fallback too), the output's byte cap, a cache-only
    /// request that found nothing, the cache's own failures, a pipeline shut down, a cancellation.
    public static func covers(_ error: any Error) -> Bool {
        guard let error = error as? ImgCacheError else { return false }
        switch error {
        case .httpStatus, .network, .timeout, .refusedURL, .tooLarge, .unsupportedFormat, .corruptImage, .dimensionsOverLimit,
             .overTimelineBudget:
            return true
        case .invalidURL, .unknownDevice, .widgetSizeUnknown, .invalidArgument, .encodingFailed, .outputOverByteLimit, .io,
             .cacheIndex, .notCached, .shutDown:
            return false
        }
    }

    /// `request` with the fallback's URL: every option kept, the source's own cache key and
    /// headers left out, and the caches used (a request that reloads its source does not reload
    /// the fallback each time).
    public func request(for request: ImageRequest) -> ImageRequest {
        var fallback = request
        fallback.url = url
        fallback.cacheKey = nil
        fallback.headers = [:]
        fallback.keyHeaders = []
        fallback.cachePolicy = .useCache
        return fallback
    }
}
