import ImgCache

/// imgproxy's `AUTO_AVIF` and `AUTO_WEBP` (`serve --auto-format avif,webp`): a request whose URL
/// names no format is answered in the first of `formats` its `Accept` header names, else in the
/// automatic format. The responses of such a route carry `Vary: Accept`, and the format chosen is
/// part of the variant's cache key (so of its ETag).
///
/// `Accept` is read as RFC 9110 says: comma-separated media ranges, each with an optional
/// `q` weight; a format is named when an entry gives its exact type (`image/avif`, any case) with
/// a weight above 0, and no entry of that type gives it 0 (`image/avif;q=0` refuses it). As in
/// imgproxy, `image/*` and `*/*` name no format: a browser sends them for formats it cannot decode.
struct FormatNegotiation: Sendable {
    /// The formats negotiated, most preferred first: AVIF and WebP.
    static let negotiable: [ImageFormat] = [.avif, .webp]

    /// The formats offered, most preferred first; empty when nothing is negotiated.
    let formats: [ImageFormat]

    /// - Throws: `invalidArgument` for a format other than AVIF and WebP, or one given twice.
    init(formats: [ImageFormat]) throws {
        for format in formats where !Self.negotiable.contains(format) {
            throw ImgCacheError.invalidArgument("\(format) is not negotiated: avif and webp are")
        }
        guard Set(formats).count == formats.count else {
            throw ImgCacheError.invalidArgument("a negotiated format is given twice in \(formats.map(\.rawValue).joined(separator: ","))")
        }
        self.formats = formats
    }

    /// True when requests are negotiated at all.
    var isActive: Bool { !formats.isEmpty }

    /// The first offered format a request with `headers` accepts; nil for none, and at once
    /// when nothing is negotiated.
    func format(for headers: HTTPHeaders) -> ImageFormat? {
        guard isActive else { return nil }
        return format(accepting: headers.values(for: "accept"))
    }

    /// The first offered format the `Accept` field values `accept` name; nil for none.
    func format(accepting accept: [String]) -> ImageFormat? {
        guard isActive, !accept.isEmpty else { return nil }
        var weights: [String: [Double]] = [:]
        for range in accept.joined(separator: ",").split(separator: ",") {
            guard let (type, weight) = Self.mediaRange(range) else { continue }
            weights[type, default: []].append(weight)
        }
        return formats.first { format in
            guard let named = weights[format.mimeType] else { return false }
            return !named.contains(0) && named.contains { $0 > 0 }
        }
    }

    /// `request` in `format` when it asks for the automatic format: AVIF or WebP at the request's
    /// quality (its `q`), else at the format's default; other requests as they are.
    static func request(_ request: ImageRequest, in format: ImageFormat) -> ImageRequest {
        guard request.outputFormat == .automatic else { return request }
        var negotiated = request
        switch format {
        case .avif: negotiated.outputFormat = .avif(quality: request.quality ?? AVIFEncoder.defaultQuality)
        case .webp: negotiated.outputFormat = .webp(quality: request.quality ?? JPEGEncoder.defaultQuality)
        default: return request
        }
        negotiated.quality = nil
        return negotiated
    }

    /// One media range's type, lower-cased, and its weight (1 without `q`); nil for an entry
    /// that is not `type/subtype` or whose weight is not RFC 9110's qvalue (0 to 1, at most three
    /// decimals).
    private static func mediaRange(_ range: Substring) -> (String, Double)? {
        let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = parts.first?.lowercased(), type.split(separator: "/").count == 2 else { return nil }
        var weight = 1.0
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
            guard let value = qvalue(pair[1]) else { return nil }
            weight = value
        }
        return (type, weight)
    }

    /// RFC 9110's qvalue: "0" or "1", optionally followed by "." and up to three digits, at most 1.
    private static func qvalue(_ text: String) -> Double? {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, whole == "0" || whole == "1" else { return nil }
        if pieces.count == 2 {
            guard pieces[1].count <= 3, pieces[1].allSatisfy(\.isASCIIDigit) else { return nil }
        }
        guard let value = Double(text), value <= 1 else { return nil }
        return value
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
