/// The one error type of ImgCache: a case for every failure a caller can act on.
public enum ImgCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are in no format a registered decoder reads (decided from magic bytes only).
    case unsupportedFormat(detail: String)
    /// The bytes start like `format` but cannot be decoded; `detail` says why.
    case corruptImage(format: ImageFormat, detail: String)
    /// The declared dimensions exceed a configured pixel limit; refused before any allocation.
    case dimensionsOverLimit(width: Int, height: Int, limit: Int)
    /// A URL that cannot be loaded: malformed (an http or https URL without a host, a file URL
    /// naming another host), or a scheme other than http, https and file, or a file URL where
    /// `DataLoader.Configuration.allowsFileURLs` is false (its default).
    case invalidURL(String)
    /// The server answered with an HTTP status that is not a success (after any retries).
    case httpStatus(code: Int, url: String)
    /// A download passed the byte limit (from Content-Length, or while bytes arrived).
    case tooLarge(bytes: Int, limit: Int)
    /// A request took longer than its time-out (after any retries).
    case timeout(url: String, seconds: Double)
    /// The connection failed (refused, reset, DNS, TLS, too many redirects...) after any retries.
    case network(url: String, detail: String)
    /// The loader's policy refused the URL or a redirect to it: a redirect from https to http, or
    /// a host that `DataLoader.Configuration.allowedHosts` does not list. Never retried.
    case refusedURL(url: String, reason: String)
    /// No device in the catalogue has that name; `suggestions` are the closest names.
    case unknownDevice(name: String, suggestions: [String])
    /// No published widget size exists for that family on that device.
    case widgetSizeUnknown(device: String, family: String)
    /// An argument is out of its documented range (a zero target size, a negative budget...).
    case invalidArgument(String)
    /// A bitmap could not be encoded as `format`.
    case encodingFailed(format: ImageFormat, detail: String)
    /// The encoded image is over `ImageRequest.maxBytes` even at the lowest quality (JPEG, lossy
    /// WebP), or as it is (PNG, GIF, lossless WebP): `bytes` is the smallest output made.
    case outputOverByteLimit(format: ImageFormat, bytes: Int, limit: Int)
    /// One output frame of `width x height` (4 bytes a pixel) is over what each of `entries`
    /// entries of a widget's timeline may take (`TimelineBudget`, without `fitsImage`).
    case overTimelineBudget(width: Int, height: Int, bytesPerEntry: Int, entries: Int)
    /// A file could not be read or written.
    case io(path: String, detail: String)
    /// The cache index (SQLite database at `path`) failed after its retries.
    case cacheIndex(path: String, detail: String)
    /// A request with `ImageRequest.CachePolicy.cacheOnly` found nothing stored for `key`; no
    /// request was made.
    case notCached(key: String)
    /// The request began after `ImagePipeline.shutdown()` did; nothing was done.
    case shutDown

    public var description: String {
        switch self {
        case .unsupportedFormat(let detail):
            return "unsupported format: \(detail)"
        case .corruptImage(let format, let detail):
            return "corrupt \(format.rawValue.uppercased()) image: \(detail)"
        case .dimensionsOverLimit(let width, let height, let limit):
            return "image is \(width)x\(height) pixels, over the limit of \(limit) pixels"
        case .invalidURL(let url):
            return "cannot load '\(url)': only http and https URLs with a host, and local file URLs where allowed, are supported"
        case .httpStatus(let code, let url):
            return "HTTP \(code) from \(url)"
        case .tooLarge(let bytes, let limit):
            return "download of \(bytes) bytes or more is over the limit of \(limit) bytes"
        case .timeout(let url, let seconds):
            return "no answer from \(url) within \(seconds) s"
        case .network(let url, let detail):
            return "network error for \(url): \(detail)"
        case .refusedURL(let url, let reason):
            return "refused \(url): \(reason)"
        case .unknownDevice(let name, let suggestions):
            return "unknown device '\(name)'; closest: \(suggestions.joined(separator: ", "))"
        case .widgetSizeUnknown(let device, let family):
            return "no published \(family) widget size for \(device)"
        case .invalidArgument(let detail):
            return "invalid argument: \(detail)"
        case .encodingFailed(let format, let detail):
            return "cannot encode \(format.rawValue.uppercased()): \(detail)"
        case .outputOverByteLimit(let format, let bytes, let limit):
            return "the smallest \(format.rawValue.uppercased()) output is \(bytes) bytes, over the cap of \(limit) bytes (max bytes)"
        case .overTimelineBudget(let width, let height, let bytesPerEntry, let entries):
            return "a \(width)x\(height) frame takes \(width * height * 4) bytes, over the \(bytesPerEntry) bytes each of"
                + " \(entries) timeline entries may take (fit budget makes it smaller)"
        case .io(let path, let detail):
            return "\(path): \(detail)"
        case .cacheIndex(let path, let detail):
            return "cache index \(path): \(detail)"
        case .notCached(let key):
            return "not in the cache (cache only): \(key)"
        case .shutDown:
            return "the pipeline is shut down"
        }
    }
}
