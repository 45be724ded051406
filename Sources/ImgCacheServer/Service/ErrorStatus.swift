import ImgCache
import ImgCacheServerURLs

/// The HTTP status and one-line body of a request that failed: the URL's own refusals keep their
/// status (400, 403, 404, 414); the pipeline's errors map as a client of an image server expects.
struct ErrorStatus: Sendable, Hashable {
    let status: Int
    let message: String

    init(_ error: any Error) {
        switch error {
        case let error as ServeURLError:
            self.init(status: error.httpStatus, message: error.description)
        case let error as ImgCacheError:
            self.init(status: Self.status(of: error), message: error.description)
        case is CancellationError:
            self.init(status: 503, message: "the request was cancelled")
        default:
            self.init(status: 500, message: "internal error")
        }
    }

    init(status: Int, message: String) {
        self.status = status
        // One line, whatever the message holds.
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// 400 bad options, 403 a refused source, 404 the origin's 404 (or nothing cached for a
    /// cache-only request), 413 over a byte or pixel limit (the output's byte cap and a timeline's entry budget too), 415 not an
    /// image, 422 a corrupt image, 502 an origin failure, 504 an origin time-out, 503 a request
    /// that came after the pipeline shut down, 500 the server's own failures.
    private static func status(of error: ImgCacheError) -> Int {
        switch error {
        case .invalidArgument, .invalidURL, .unknownDevice, .widgetSizeUnknown: return 400
        case .refusedURL: return 403
        case .httpStatus(let code, _): return code == 404 || code == 410 ? 404 : 502
        case .notCached: return 404
        case .tooLarge, .dimensionsOverLimit, .outputOverByteLimit, .overTimelineBudget: return 413
        case .unsupportedFormat: return 415
        case .corruptImage: return 422
        case .network: return 502
        case .timeout: return 504
        case .shutDown: return 503
        case .io, .cacheIndex, .encodingFailed: return 500
        }
    }
}
