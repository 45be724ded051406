/// The registered decoders, one per format read. Adding a format is adding its decoder here.
enum ImageDecoders {
    /// Every decoder, in the order signatures are tried.
    static let all: [any ImageDecoding.Type] = [
        JPEGDecoder.self, PNGDecoder.self, GIFDecoder.self, WebPDecoder.self, HEICDecoder.self, AVIFDecoder.self,
    ]

    /// The decoder of `format`.
    /// - Throws: `unsupportedFormat` for a format nothing here reads (an output-only format).
    static func decoder(for format: ImageFormat) throws -> any ImageDecoding.Type {
        guard let decoder = all.first(where: { $0.format == format }) else {
            throw ImgCacheError.unsupportedFormat(detail: "no decoder reads \(format.rawValue.uppercased())")
        }
        return decoder
    }

    /// The decoder whose signature starts `prefix`.
    /// - Throws: `unsupportedFormat` naming the formats read and the first bytes seen.
    static func decoder(forPrefix prefix: [UInt8]) throws -> any ImageDecoding.Type {
        if prefix.isEmpty { throw ImgCacheError.unsupportedFormat(detail: "empty input") }
        if let decoder = all.first(where: { $0.recognizes(prefix) }) { return decoder }
        let hex = prefix.prefix(4).map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        throw ImgCacheError.unsupportedFormat(detail: "not \(readableFormatNames) (starts with \(hex))")
    }

    /// "JPEG, PNG, GIF, WEBP, HEIC or AVIF": the formats read, for messages.
    static var readableFormatNames: String {
        let names = all.map { $0.format.rawValue.uppercased() }
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The MIME types read, most preferred first, for a loader's `Accept` header.
    static var mimeTypes: [String] { all.map { $0.format.mimeType } }
}
