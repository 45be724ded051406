import Foundation
import ImgCache
import ImgCacheServerURLs
import Synchronization

/// `imgcache serve`: an `HTTPServer` answering imgproxy-style image URLs through an
/// `ImagePipeline` (see `ImageService`), with `/health` and `/metrics`.
public final class ImageServer: Sendable {
    /// Everything the server is told besides its pipeline.
    public struct Configuration: Sendable {
        /// How image URLs are read and verified (signing, path length, limits, key policy).
        public var urls: ServeURLConfiguration
        /// The HTTP server's address and limits. Default `HTTPServer.Configuration()`.
        public var http: HTTPServer.Configuration
        /// Seconds clients and CDNs may keep an image (`Cache-Control: public, max-age`). Default
        /// 31,536,000 (a year): a signed URL names an immutable result. 0 to 10 years.
        public var ttl: Int
        /// Where a JSON line per request goes: a file appended to, or `-` for standard output.
        /// Default nil: no access log.
        public var accessLogPath: String?
        /// The formats a URL naming none is answered in when its `Accept` header names them,
        /// most preferred first: `.avif` and `.webp` (imgproxy's `AUTO_AVIF` and `AUTO_WEBP`;
        /// see `FormatNegotiation`). Default empty: the automatic format, whatever `Accept` says.
        public var autoFormats: [ImageFormat]
        /// The time expiring URLs (`exp:`) are compared with. Default the system's (`Date()`);
        /// tests set their own.
        public var clock: @Sendable () -> Date
        /// What is served when a URL's source fails (see `FallbackImage`). Default nil: the
        /// failure's error status.
        public var fallback: FallbackImage?

        public init(
            urls: ServeURLConfiguration, http: HTTPServer.Configuration = HTTPServer.Configuration(),
            ttl: Int = 31_536_000, accessLogPath: String? = nil, autoFormats: [ImageFormat] = [],
            clock: @escaping @Sendable () -> Date = { Date() }, fallback: FallbackImage? = nil
        ) {
            self.urls = urls
            self.http = http
            self.ttl = ttl
            self.accessLogPath = accessLogPath
            self.autoFormats = autoFormats
            self.clock = clock
            self.fallback = fallback
        }
    }

    private let http: HTTPServer
    /// The address listened on (the port picked when port 0 was asked for).
    public var address: NetworkAddress { http.address }

    /// Starts listening.
    /// - Throws: `invalidArgument` for a TTL out of range, auto formats other than AVIF and WebP
    ///   (or one twice) or a fallback's status or TTL out of range, what `AccessLog` throws for a log file that cannot be opened,
    ///   `HTTPServerError` when the address cannot be bound.
    public init(pipeline: ImagePipeline, configuration: Configuration) throws {
        guard (0...315_360_000).contains(configuration.ttl) else {
            throw ImgCacheError.invalidArgument("TTL \(configuration.ttl) s is not in 0...315360000 s")
        }
        let negotiation = try FormatNegotiation(formats: configuration.autoFormats)
        try configuration.fallback?.validate()
        let accessLog = try configuration.accessLogPath.map(AccessLog.init(path:))
        let metrics = ServerMetrics()
        // The service reads the server's statistics, which exist once the server does.
        let reference = ServerReference()
        let service = ImageService(
            pipeline: pipeline, urls: configuration.urls, ttl: configuration.ttl, clock: configuration.clock,
            fallback: configuration.fallback, negotiation: negotiation, metrics: metrics, server: reference)
        // Every response the server sends, its own 503s and 504s too, is counted and logged.
        http = try HTTPServer(configuration: configuration.http, observer: { record in
            metrics.record(status: record.status, seconds: record.seconds)
            accessLog?.record(record)
        }, immediateHandler: { request in service.respondAtOnce(to: request) }) { request in await service.respond(to: request) }
        reference.server = http
    }

    /// Stops accepting, lets requests in flight finish within `drainSeconds`, answers 503 to those
    /// left, and stops (see `HTTPServer.shutdown(drainSeconds:)`).
    @discardableResult
    public func shutdown(drainSeconds: TimeInterval) async -> HTTPServer.ShutdownSummary {
        await http.shutdown(drainSeconds: drainSeconds)
    }
}
