import Foundation

/// The source part of a serve path, as imgproxy writes it: `plain/PERCENT-ENCODED-URL[@EXT]`, or
/// the URL-safe Base64 of the URL (split by "/" anywhere, padding optional) with `.EXT`.
struct ServeSource {
    /// An http or https URL with a host.
    let url: URL
    /// The extension after "@" or ".", as written; nil when there is none (or it is empty).
    let fileExtension: String?

    /// Decodes the path segments from the source's first on (at least one; the path is printable ASCII).
    /// - Throws: `invalidSource` for an empty source, several "@" or ".", a bad percent-escape or
    ///   base64url, bytes that are not UTF-8, or what `url(decoded:)` refuses.
    init(segments: ArraySlice<ArraySlice<UInt8>>) throws(ServeURLError) {
        let first = segments[segments.startIndex]
        if segments.count > 1, first.elementsEqual("enc".utf8) {
            throw .invalidSource("encrypted sources (enc/) are not supported: plain/ or base64url")
        }
        let decoded: [UInt8]
        if segments.count > 1, first.elementsEqual("plain".utf8) {
            let joined = Array(segments.dropFirst().joined(separator: [UInt8(ascii: "/")]))
            let (encoded, fileExtension) = try Self.split(joined, at: "@", "write an '@' of the source URL as %40")
            guard let bytes = Self.percentDecoded(encoded) else {
                throw .invalidSource("a '%' is not followed by two hex digits")
            }
            decoded = bytes
            self.fileExtension = fileExtension
        } else {
            let joined = Array(segments.joined())
            var (encoded, fileExtension) = try Self.split(joined, at: ".", "a base64url source has one '.', before its extension")
            for _ in 0..<2 where encoded.last == UInt8(ascii: "=") { encoded.removeLast() }
            guard let bytes = Base64URL.decode(encoded) else {
                throw .invalidSource("'\(ServeURLError.quote(String(decoding: encoded, as: UTF8.self)))' is not base64url (A-Z, a-z, 0-9, - and _)")
            }
            decoded = bytes
            self.fileExtension = fileExtension
        }
        url = try Self.url(decoded: decoded)
    }

    /// The bytes before the one `separator` and the extension after it (nil when empty).
    private static func split(_ bytes: [UInt8], at separator: Unicode.Scalar, _ hint: String) throws(ServeURLError) -> ([UInt8], String?) {
        let parts = bytes.split(separator: UInt8(ascii: separator), omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw .invalidSource("several '\(separator)': \(hint)") }
        guard !parts[0].isEmpty else { throw .invalidSource("the source URL is empty") }
        let fileExtension = parts.count == 2 && !parts[1].isEmpty ? String(decoding: parts[1], as: UTF8.self) : nil
        return (Array(parts[0]), fileExtension)
    }

    /// `bytes` with every `%XX` decoded; nil when a "%" is not followed by two hex digits.
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8]? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                decoded.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                return nil
            }
            decoded.append(high << 4 | low)
            index += 3
        }
        return decoded
    }

    /// The URL the decoded bytes spell: UTF-8 with no control character; every byte no URL may
    /// hold as it is (a space, `"<>\^`{|}`, a byte over 0x7E) percent-encoded, as a browser
    /// sends it; every "%" then followed by two hex digits; http or https (any case) with a host.
    static func url(decoded bytes: [UInt8]) throws(ServeURLError) -> URL {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .invalidSource("the decoded URL is not UTF-8") }
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .invalidSource("the decoded URL holds a control character")
        }
        var text = ""
        for byte in bytes {
            if byte > 0x20, byte < 0x7F, !Self.escaped.contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0x0F)])
            }
        }
        guard percentDecoded(Array(text.utf8)) != nil else { throw .invalidSource("a '%' in the decoded URL is not followed by two hex digits") }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidSource("'\(ServeURLError.quote(text))' is no http or https URL")
        }
        guard let host = url.host, !host.isEmpty else { throw .invalidSource("'\(ServeURLError.quote(text))' has no host") }
        return url
    }

    /// The printable ASCII bytes a URL may not hold as they are.
    private static let escaped = Set("\"<>\\^`{|}".utf8)

    private static let hexDigits = Array("0123456789ABCDEF")

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
