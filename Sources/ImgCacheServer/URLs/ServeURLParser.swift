import Foundation
import ImgCache

/// Reads the paths of `imgcache serve`, in imgproxy's URL format so that services keep their
/// signing code:
///
///     /SIGNATURE/OPTION:ARG:ARG/OPTION:ARG/plain/PERCENT-ENCODED-SOURCE[@EXT]
///     /SIGNATURE/OPTION:ARG:ARG/OPTION:ARG/BASE64URL-SOURCE[.EXT]       (may be split by "/")
///
/// SIGNATURE is base64url without padding of HMAC-SHA256(key, salt + path), path being all that
/// follows it from its "/" (see `URLSigningKey`). The options are every segment holding a ":"
/// up to the source, applied in order (a later one overrides an earlier one); see the option
/// table in docs/serving.md. Presets (`pr:NAME`, and `default` before all) are expanded first (see
/// `ServePresets`); with `onlyPresets` the segment after the signature is preset names alone.
/// Everything is checked before anything is fetched: the path's length and bytes,
/// the signature (before any option is read), each option by name, argument count and range, the
/// source URL, and the target against the output limit.
public struct ServeURLParser: Sendable {
    /// How paths are read: signing, the path limit, the pipeline's limits and key policy.
    public let configuration: ServeURLConfiguration

    /// A parser reading paths under `configuration`.
    public init(configuration: ServeURLConfiguration) {
        self.configuration = configuration
    }

    /// The request `path` asks for.
    ///
    /// - Parameter path: the request target's path exactly as received: percent-escapes not
    ///   decoded (the signature covers the bytes as sent), slashes not merged. From a "?" on is the
    ///   query, which the signature does not cover and which is left out, as imgproxy does.
    /// - Throws: `ServeURLError`: 414 over `maxPathLength`; 400 for a byte outside printable ASCII;
    ///   404 without a signature segment or a source; 403 for a signature that is not right
    ///   (`configuration.signing`); 400 for an option or a source that is not.
    public func parse(path: String) throws(ServeURLError) -> ServeRequest {
        let bytes = Array(path.utf8)
        guard bytes.count <= configuration.maxPathLength else {
            throw .pathTooLong(length: bytes.count, limit: configuration.maxPathLength)
        }
        if let byte = bytes.first(where: { !(0x21...0x7E).contains($0) }) {
            throw .malformedPath("byte 0x\(String(byte, radix: 16, uppercase: true)) is no URL character: percent-encode it")
        }
        let target = bytes.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard target.first == UInt8(ascii: "/") else { throw .notFound("a serve path starts with '/'") }
        let afterSlash = target.dropFirst()
        guard let signatureEnd = afterSlash.firstIndex(of: UInt8(ascii: "/")), signatureEnd > afterSlash.startIndex else {
            throw .notFound("no signature segment: /SIGNATURE/OPTIONS/SOURCE")
        }
        try verify(signature: afterSlash[..<signatureEnd], path: afterSlash[signatureEnd...])
        let segments = afterSlash[afterSlash.index(after: signatureEnd)...]
            .split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var sourceStart = segments.startIndex
        let expanded: [ServeOption]
        if configuration.onlyPresets {
            let names = segments[sourceStart].split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            sourceStart += 1
            expanded = try configuration.presets.expand(names: names.map { String(decoding: $0, as: UTF8.self) }, option: "preset")
        } else {
            var written: [ServeOption] = []
            while sourceStart < segments.endIndex, segments[sourceStart].contains(UInt8(ascii: ":")) {
                written.append(ServeOption(segment: segments[sourceStart]))
                sourceStart += 1
            }
            expanded = try configuration.presets.expand(written)
        }
        var options = ServeOptions(
            limits: configuration.limits, encoderControls: configuration.encoderControls,
            quantizationColors: configuration.quantizationColors)
        for option in expanded { try options.apply(option) }
        let sourceSegments = segments[sourceStart...]
        guard let first = sourceSegments.first, !(sourceSegments.count == 1 && first.isEmpty) else {
            throw .notFound("no source URL after the options")
        }
        if sourceStart == segments.startIndex, sourceSegments.count > 1,
           ServeOptions.ResizingType(rawValue: String(decoding: first, as: UTF8.self)) != nil
        {
            throw .notFound("imgproxy's basic URL format (/SIGNATURE/fit/300/200/ce/0/SOURCE) is not supported: write rs:fit:300:200")
        }
        let source = try ServeSource(segments: sourceSegments)
        if let fileExtension = source.fileExtension { try options.setFormat(fileExtension, option: "extension") }
        return try options.request(source: source.url, keyPolicy: configuration.keyPolicy)
    }

    /// Refuses a signature that `configuration.signing` does not accept; the messages never
    /// show the signature.
    private func verify(signature: ArraySlice<UInt8>, path: ArraySlice<UInt8>) throws(ServeURLError) {
        guard case .required(let key) = configuration.signing else { return }
        switch key.check(signature: signature, path: path) {
        case .valid: return
        case .malformed: throw .badSignature("the signature is not base64url of an HMAC-SHA256")
        case .truncated:
            throw .badSignature("the signature is not a full HMAC-SHA256 (43 characters): unsigned and truncated signatures are refused")
        case .mismatch: throw .badSignature("the signature does not match the path")
        }
    }
}
