import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataLoader {
    /// A URLSession without cache or cookies whose callbacks go to `delegate`, one at a time.
    static func makeSession(_ configuration: Configuration, delegate: SessionDelegate) -> URLSession {
        let session = URLSessionConfiguration.ephemeral
        session.urlCache = nil
        session.requestCachePolicy = .reloadIgnoringLocalCacheData
        session.httpCookieStorage = nil
        session.httpShouldSetCookies = false
        // The loader's own watch enforces the time-outs to the millisecond; URLSession's timers
        // (whole seconds on Linux: 0.5 s truncates to 0) are only a backstop behind the overall
        // time-out, which also ends transfers the loader has abandoned.
        let backstop = (configuration.overallTimeout + 1).rounded(.up)
        session.timeoutIntervalForRequest = backstop
        session.timeoutIntervalForResource = backstop
        session.httpAdditionalHeaders = [
            "User-Agent": configuration.userAgent,
            // What the decoders read; CDNs that negotiate formats would otherwise send WebP or AVIF.
            "Accept": "image/jpeg, image/png, image/gif, */*;q=0.1",
            // A session of its own already gives each attempt a fresh connection; this lets the
            // server close it at once too.
            "Connection": configuration.reusesConnections ? "keep-alive" : "close",
        ]
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return URLSession(configuration: session, delegate: delegate, delegateQueue: queue)
    }
}
