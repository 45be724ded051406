import Foundation

extension ImagePipeline {
    /// Throws `invalidURL` unless `url` is http, https or file (files are read only when the
    /// loader allows them).
    static func checkScheme(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            throw ImgCacheError.invalidURL(url.absoluteString)
        }
    }

    /// The bytes of a file the pipeline stored, or an `io` error naming it.
    static func readStoredFile(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ImgCacheError.io(path: url.path, detail: "cannot read: \(error.localizedDescription)")
        }
    }
}
