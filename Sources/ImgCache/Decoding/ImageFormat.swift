/// The image formats ImgCache reads and writes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg
    case png
    case gif

    /// The usual file extension, without a dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .gif: return "gif"
        }
    }

    /// The MIME type.
    public var mimeType: String { "image/\(rawValue)" }

    /// Number of leading bytes `sniff` looks at.
    static let signatureLength = 8

    /// Detects the format from magic bytes alone (never from a file name or a Content-Type):
    /// JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`, GIF `GIF87a` or `GIF89a`.
    public static func sniff<Bytes: Collection>(_ prefix: Bytes) throws -> ImageFormat
    where Bytes.Element == UInt8 {
        let bytes = Array(prefix.prefix(signatureLength))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.isEmpty { throw ImgCacheError.unsupportedFormat(detail: "empty input") }
        let hex = bytes.prefix(4).map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        throw ImgCacheError.unsupportedFormat(detail: "not JPEG, PNG or GIF (starts with \(hex))")
    }
}
