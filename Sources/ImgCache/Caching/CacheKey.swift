import Foundation

/// How cache keys become file names: `md5(key UTF-8)` as 32 lowercase hex digits, then "." and an
/// extension when there is one. This is the naming SDWebImage and the seed widget cache use, so a
/// folder written by either reads the same.
///
/// - Originals (key = the URL string without its fragment, see `originalKey(for:)`) take the
///   extension of the URL path, see `urlPathExtension(_:)`:
///   `https://example.com/photos/cat.gif?w=200` -> `4b917c5c9e6a2783d116f549e4a7b162.gif`.
/// - Variants take the extension of their output format (`png`, `jpg`, `gif`).
public enum CacheKey {
    /// Longest extension kept, in UTF-8 bytes: 255 (the longest file name) - 32 (hex digest) - 1 (dot).
    public static let maxExtensionLength = 222

    /// The 32 lowercase hex digits of the MD5 of `key`'s UTF-8 bytes.
    public static func hashedName(for key: String) -> String {
        MD5.hexDigest(of: key)
    }

    /// The key of the original at `url`: the URL string without its fragment, which is never sent
    /// to a server (so `a.jpg#x` and `a.jpg` are one original). No original key holds a "#", so none
    /// can equal a variant's key, which always does (see `variantMarker`). See `CacheKeyPolicy` for
    /// keys that leave query items out.
    public static func originalKey(for url: URL) -> String {
        let text = url.absoluteString
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }

    /// The key of an original a caller names with its own key (`ImageRequest.cacheKey`): the key
    /// with every "#" written "%23", so that it never reaches the variants' key space.
    public static func originalKey(custom key: String) -> String {
        key.replacingOccurrences(of: "#", with: "%23")
    }

    /// What separates a variant's key from its original's: every variant key holds it, no
    /// original key can (see `originalKey(for:)`).
    public static let variantMarker = "#imgcache-variant:"

    /// True for the key of a variant, false for an original's.
    public static func isVariantKey(_ key: String) -> Bool {
        key.contains(variantMarker)
    }

    /// `hashedName(for: key)`, plus "." and `fileExtension` when it is not nil or empty.
    public static func fileName(for key: String, fileExtension: String?) -> String {
        let hashed = hashedName(for: key)
        guard let fileExtension, !fileExtension.isEmpty else { return hashed }
        return hashed + "." + fileExtension
    }

    /// The file name of the original whose key is the URL string `url`.
    public static func fileName(forOriginal url: String) -> String {
        fileName(for: url, fileExtension: urlPathExtension(url))
    }

    /// The file name of a variant stored in `format`.
    public static func fileName(forVariant key: String, format: ImageFormat) -> String {
        fileName(for: key, fileExtension: format.fileExtension)
    }

    /// The extension of the last segment of `url`'s path, as written (case and percent-escapes kept):
    /// the query and fragment are ignored, as are the scheme and host (`https://example.com` has none);
    /// the characters after the segment's last "." are taken, unless that dot starts the segment
    /// (`.hidden` has none); ':' and NUL are removed; and the result is dropped when it is empty or
    /// longer than `maxExtensionLength` UTF-8 bytes. A string without "://" is taken as a bare path.
    public static func urlPathExtension(_ url: String) -> String? {
        var path = Substring(url)
        if let fragment = path.firstIndex(of: "#") { path = path[..<fragment] }
        if let query = path.firstIndex(of: "?") { path = path[..<query] }
        if let schemeEnd = path.range(of: "://") {
            let afterScheme = path[schemeEnd.upperBound...]
            path = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
        }
        let segment = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path
        guard let dot = segment.lastIndex(of: "."), dot != segment.startIndex else { return nil }
        let cleaned = String(segment[segment.index(after: dot)...].filter { $0 != ":" && $0 != "\0" })
        guard !cleaned.isEmpty, cleaned.utf8.count <= maxExtensionLength else { return nil }
        return cleaned
    }
}
