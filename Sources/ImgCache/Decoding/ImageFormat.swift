/// An image format ImgCache reads (each has a decoder in `ImageDecoders`) or writes. Formats are
/// values, so that a new one is a constant of its own folder (`ImageFormat.png` lives in PNG/).
public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    /// The short lowercase name: "jpeg", "png", "gif", "webp", "heic", "avif"; in JSON and in variant keys.
    public let rawValue: String
    /// The usual file extension, without a dot.
    public let fileExtension: String
    /// The MIME type.
    public let mimeType: String

    init(rawValue: String, fileExtension: String, mimeType: String) {
        self.rawValue = rawValue
        self.fileExtension = fileExtension
        self.mimeType = mimeType
    }

    public var description: String { rawValue }

    /// Number of leading bytes `sniff` looks at: enough for every registered signature (an ISOBMFF
    /// `ftyp` box lists its compatible brands there).
    static let signatureLength = 256

    /// Detects the format from magic bytes alone (never from a file name or a Content-Type),
    /// asking each registered decoder whether it recognises `prefix`.
    /// - Throws: `unsupportedFormat` naming the formats read, and the first bytes seen.
    public static func sniff<Bytes: Collection>(_ prefix: Bytes) throws -> ImageFormat
    where Bytes.Element == UInt8 {
        try ImageDecoders.decoder(forPrefix: Array(prefix.prefix(signatureLength))).format
    }
}
