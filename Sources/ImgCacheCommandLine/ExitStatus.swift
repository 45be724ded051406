import ImgCache

/// The documented exit codes of `imgcache`.
enum ExitStatus: Int32 {
    case success = 0
    /// An unexpected failure.
    case failure = 1
    /// The command line does not fit the verb's usage.
    case usage = 2
    /// The input is in no format a decoder is registered for (JPEG, PNG, GIF, WebP, HEIC, AVIF).
    case unsupportedFormat = 3
    /// The input is a damaged or truncated image.
    case corruptImage = 4
    /// The image is over a pixel limit.
    case overLimit = 5
    /// A file could not be read or written.
    case io = 6
    /// The cache index failed.
    case cache = 7
    /// The network failed or timed out.
    case network = 8
    /// The server answered with an HTTP error status.
    case httpStatus = 9
    /// A download was over the byte limit.
    case tooLarge = 10
    /// Some URLs of a prefetch failed.
    case someFailed = 11
    /// A URL or a redirect was refused: https to http, or a host not in --allowed-hosts.
    case refusedURL = 12
    /// --cache-only found nothing stored; no request was made.
    case notCached = 13
    /// The output is over --max-bytes even at the lowest quality (or, without a quality, as it is).
    case overByteCap = 14
    /// An image over a widget timeline's per-entry budget (--timeline-entries without --fit-budget).
    case overTimelineBudget = 15

    /// The exit status and the one-line message for an error.
    static func describing(_ error: Error) -> (status: ExitStatus, message: String) {
        switch error {
        case let error as UsageError:
            return (.usage, error.description)
        case let error as PrefetchFailed:
            return (.someFailed, error.description)
        case let error as ImgCacheError:
            switch error {
            case .unsupportedFormat: return (.unsupportedFormat, error.description)
            case .corruptImage: return (.corruptImage, error.description)
            case .dimensionsOverLimit: return (.overLimit, error.description)
            case .invalidArgument: return (.usage, error.description)
            case .io: return (.io, error.description)
            case .encodingFailed, .shutDown: return (.failure, error.description)
            case .cacheIndex: return (.cache, error.description)
            case .invalidURL, .unknownDevice, .widgetSizeUnknown: return (.usage, error.description)
            case .network, .timeout: return (.network, error.description)
            case .httpStatus: return (.httpStatus, error.description)
            case .tooLarge: return (.tooLarge, error.description)
            case .refusedURL: return (.refusedURL, error.description)
            case .notCached: return (.notCached, error.description)
            case .outputOverByteLimit: return (.overByteCap, error.description)
            case .overTimelineBudget: return (.overTimelineBudget, error.description)
            }
        default:
            return (.failure, "\(error)")
        }
    }
}
