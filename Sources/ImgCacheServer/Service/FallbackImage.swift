import Foundation
import ImgCache

/// `imgcache serve`'s fallback image (imgproxy's `FALLBACK_IMAGE_URL`/`PATH`,
/// `FALLBACK_IMAGE_HTTP_CODE` and `FALLBACK_IMAGE_TTL`): when a URL's source fails (see
/// `ImageFallback.covers`), the fallback is prepared with the URL's options and served with
/// `status`, `Cache-Control: public, max-age=ttl` (less when the URL expires sooner), no ETag,
/// and a `Fallback-Image` header naming the failure. Nothing is stored under the source's key.
public struct FallbackImage: Sendable {
    /// The image, and how the pipeline reaches it.
    public var image: ImageFallback
    /// The status of a response with the fallback: 200 to 599, or 0 for the status the source's
    /// failure would have had (404, 502, 504...). Default 200, imgproxy's.
    public var status: Int
    /// Seconds clients and CDNs may keep a response with the fallback: 0 to 10 years. Default 60,
    /// so that a source that comes back is seen soon.
    public var ttl: Int

    /// Longest `Fallback-Image` header value: 256 characters.
    static let maxReasonLength = 256

    public init(image: ImageFallback, status: Int = 200, ttl: Int = 60) {
        self.image = image
        self.status = status
        self.ttl = ttl
    }

    /// Refuses a status other than 0 or 200...599 and a TTL out of its range (`invalidArgument`).
    func validate() throws {
        guard status == 0 || (200...599).contains(status) else {
            throw ImgCacheError.invalidArgument("fallback status \(status) is not 0 (the failure's own) or 200...599")
        }
        guard (0...315_360_000).contains(ttl) else {
            throw ImgCacheError.invalidArgument("fallback TTL \(ttl) s is not in 0...315360000 s")
        }
    }

    /// The response serving `summary` (the fallback's variant) in place of a source that failed
    /// with `failure`, kept at most `maxAge` seconds (the URL's own limit) and with `Vary: Accept`
    /// when `varies`.
    func response(_ summary: ImageSummary, failure: ImgCacheError, maxAge: Int, varies: Bool) -> HTTPResponse {
        let failed = ErrorStatus(failure)
        var headers: HTTPHeaders = [
            "Content-Type": summary.format.mimeType, "Cache-Control": "public, max-age=\(min(ttl, maxAge))",
            "Fallback-Image": Self.headerValue("\(failed.status) \(failed.message)"),
        ]
        if varies { headers.set(name: "Vary", value: "Accept") }
        let body: HTTPResponse.Body = summary.fileURL.map { .file(path: $0.path) } ?? .bytes([UInt8](summary.unstoredData ?? Data()))
        return HTTPResponse(status: status == 0 ? failed.status : status, headers: headers, body: body, note: "fallback")
    }

    /// `text` as a header value: printable ASCII (anything else "?"), at most `maxReasonLength`.
    private static func headerValue(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(maxReasonLength).map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
    }
}
