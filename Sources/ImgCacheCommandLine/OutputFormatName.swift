import ImgCache

/// The output formats the command line names, by `--format` or by an output file's extension.
enum OutputFormatName {
    /// The names `--format` takes (`jpg` is also read as `jpeg`).
    static let names = ["auto", "jpeg", "png", "gif", "webp", "webp-lossless", "avif"]

    /// The names `--format` takes, for messages.
    static let formatNames = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")

    /// The format `name` (any case) names, at `quality`, or at the format's default when nil (85
    /// for JPEG and WebP, `AVIFEncoder.defaultQuality` for AVIF); nil for a name that is none.
    /// - Throws: `UsageError` for HEIC, which is read but never written: its encoder, x265, is GPL.
    static func format(_ name: String, quality: Int?) throws -> ImageRequest.OutputFormat? {
        let common = quality ?? JPEGEncoder.defaultQuality
        switch name.lowercased() {
        case "auto": return .automatic
        case "jpeg", "jpg": return .jpeg(quality: common)
        case "png": return .png
        case "gif": return .gif
        case "webp": return .webp(quality: common)
        case "webp-lossless": return .webpLossless
        case "avif": return .avif(quality: quality ?? AVIFEncoder.defaultQuality)
        case "heic", "heif":
            throw UsageError("HEIC is read, never written: its only encoder, x265, is GPL; write avif, webp, jpeg or png")
        default: return nil
        }
    }
}
