/// Why a serve URL was refused: a case per answer the server gives, each with its HTTP status
/// (`httpStatus`) and a one-line message (`description`) fit for a response body and a log line.
/// Messages quote at most `quoteLimit` characters of what the URL held, printable ASCII only,
/// and never the signature or the key.
public enum ServeURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 404: the path is no image URL: it has no signature segment or no source, or it is
    /// imgproxy's retired basic format (`/SIGNATURE/fit/300/200/ce/0/SOURCE`).
    case notFound(String)
    /// 404: the URL's `exp` time has passed (imgproxy's "Expired URL").
    case expired(at: Int)
    /// 403: the signature is missing, malformed, truncated or does not match, or the URL is
    /// unsigned where a key is set.
    case badSignature(String)
    /// 400: the path holds a byte no request target may (a space, a control character, a byte
    /// over 0x7E).
    case malformedPath(String)
    /// 400: an option neither imgproxy nor imgcache has.
    case unknownOption(name: String)
    /// 400: an imgproxy option, or a value of one, that imgcache does not support; `detail` says
    /// what to use instead where there is something.
    case unsupportedOption(name: String, detail: String)
    /// 400: an option's arguments are wrong (their count, a number, a range, a name), or it
    /// contradicts another option.
    case invalidOption(name: String, detail: String)
    /// 400: the source URL cannot be decoded (base64url, percent-encoding, UTF-8) or is no http or
    /// https URL with a host.
    case invalidSource(String)
    /// 414: the path is longer than `ServeURLConfiguration.maxPathLength` bytes.
    case pathTooLong(length: Int, limit: Int)

    /// The HTTP status the server answers with: 404, 403, 400 or 414 (see each case).
    public var httpStatus: Int {
        switch self {
        case .notFound, .expired: return 404
        case .badSignature: return 403
        case .malformedPath, .unknownOption, .unsupportedOption, .invalidOption, .invalidSource: return 400
        case .pathTooLong: return 414
        }
    }

    /// One line, e.g. `unsupported option 'g': gravity 'obj' is not supported: ...`.
    public var description: String {
        switch self {
        case .notFound(let detail): return "not found: \(detail)"
        case .expired(let time): return "Expired URL: its exp:\(time) has passed"
        case .badSignature(let detail): return "forbidden: \(detail)"
        case .malformedPath(let detail): return "bad path: \(detail)"
        case .unknownOption(let name): return "unknown option '\(name)'"
        case .unsupportedOption(let name, let detail): return "unsupported option '\(name)': \(detail)"
        case .invalidOption(let name, let detail): return "option '\(name)': \(detail)"
        case .invalidSource(let detail): return "bad source URL: \(detail)"
        case .pathTooLong(let length, let limit): return "the path is \(length) bytes, over the limit of \(limit)"
        }
    }

    /// Most characters of the URL a message quotes: 48.
    public static let quoteLimit = 48

    /// `text` as a message may quote it: its first `quoteLimit` characters, each outside printable
    /// ASCII written "?", and "..." when some were left out.
    static func quote(_ text: some StringProtocol) -> String {
        var quoted = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            guard count < quoteLimit else { return quoted + "..." }
            quoted.unicodeScalars.append((0x20...0x7E).contains(scalar.value) ? scalar : "?")
        }
        return quoted
    }
}
