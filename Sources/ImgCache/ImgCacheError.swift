/// The one error type of ImgCache: a case for every failure a caller can act on.
public enum ImgCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a JPEG, PNG or GIF (decided from magic bytes only).
    case unsupportedFormat(detail: String)
    /// The bytes start like `format` but cannot be decoded; `detail` says why.
    case corruptImage(format: ImageFormat, detail: String)
    /// The declared dimensions exceed a configured pixel limit; refused before any allocation.
    case dimensionsOverLimit(width: Int, height: Int, limit: Int)
    /// An argument is out of its documented range (a zero target size, a negative budget...).
    case invalidArgument(String)
    /// A bitmap could not be encoded as `format`.
    case encodingFailed(format: ImageFormat, detail: String)
    /// A file could not be read or written.
    case io(path: String, detail: String)
    /// The cache index (SQLite database at `path`) failed after its retries.
    case cacheIndex(path: String, detail: String)

    public var description: String {
        switch self {
        case .unsupportedFormat(let detail):
            return "unsupported format: \(detail)"
        case .corruptImage(let format, let detail):
            return "corrupt \(format.rawValue.uppercased()) image: \(detail)"
        case .dimensionsOverLimit(let width, let height, let limit):
            return "image is \(width)x\(height) pixels, over the limit of \(limit) pixels"
        case .invalidArgument(let detail):
            return "invalid argument: \(detail)"
        case .encodingFailed(let format, let detail):
            return "cannot encode \(format.rawValue.uppercased()): \(detail)"
        case .io(let path, let detail):
            return "\(path): \(detail)"
        case .cacheIndex(let path, let detail):
            return "cache index \(path): \(detail)"
        }
    }
}
