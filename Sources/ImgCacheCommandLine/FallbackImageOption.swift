import Foundation
import ImgCache

/// `--fallback-image FILE|URL` of `serve`, `fetch` and `prefetch`: the image prepared, with the
/// same options, in place of a source that fails (see `ImageFallback`).
enum FallbackImageOption {
    /// The fallback `text` names: an http or https URL as it is, anything else a file (a path, or a
    /// `file://` URL).
    static func image(_ text: String) throws -> ImageFallback {
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://") {
            guard let url = URL(string: text), url.host != nil || url.isFileURL else {
                throw UsageError("--fallback-image expects a file or an http(s) URL, got '\(text)'")
            }
            return ImageFallback(url: url)
        }
        guard !text.isEmpty else { throw UsageError("--fallback-image expects a file or an http(s) URL") }
        return ImageFallback(url: URL(fileURLWithPath: text).standardizedFileURL)
    }

    /// The help line of `fetch` and `prefetch`.
    static let options: [OptionHelp] = [
        OptionHelp("--fallback-image", "FILE|URL", .file, """
            prepared with the same options in place of a source that fails
            (404, 5xx, time-out, refused, corrupt, not an image); standard error
            says which URLs got it; the exit code stays the failure's
            """),
    ]

    /// The line `verb` writes on standard error for `source`, which failed with `failure` and got
    /// the fallback at `path`.
    static func note(_ verb: String, source: String, failure: ImgCacheError, path: String) -> String {
        "imgcache \(verb): \(source): fallback image in place (\(ExitStatus.describing(failure).message)): \(path)"
    }

    /// Reads the fallback once through `pipeline` (so that its original is cached under its own
    /// key) and decodes it at a small size, before any request needs it; a usage error (exit 2)
    /// naming why when it cannot be fetched, read or decoded.
    static func check(_ fallback: ImageFallback, pipeline: ImagePipeline) throws {
        do {
            let fetched = try runBlocking { try await pipeline.data(for: fallback.url) }
            let options = DecodingOptions(
                targetSize: PixelSize(width: 64, height: 64), maxFrames: 1, limits: pipeline.configuration.limits)
            _ = try ImageDecoder.decode(.data(fetched.data), options: options)
        } catch {
            throw UsageError("--fallback-image '\(fallback.url.isFileURL ? fallback.url.path : fallback.url.absoluteString)' cannot be used: \(error)")
        }
    }
}
