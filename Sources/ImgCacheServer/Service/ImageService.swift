import Foundation
import ImgCache
import ImgCacheServerURLs

/// What `imgcache serve` answers: imgproxy-style image URLs through the pipeline, their facts
/// under `/info/` (see `InfoService`), `/health` and `/metrics`. It is the `HTTPServer`'s
/// handler, and its immediate handler for what needs no waiting: a URL that does not parse or
/// verify, a variant the pipeline has at hand (see `ImageServer`).
///
/// An image response carries its Content-Type, a strong ETag (see `EntityTags`; `If-None-Match`
/// gives 304), `Cache-Control: public, max-age=TTL` (signed URLs name immutable results; an
/// expiring URL's is at most the seconds it has left, and past them it is a 404), and the
/// variant's file, sent by the server without copying it through Swift. Errors carry
/// `Cache-Control: no-store` and one line of text. With `FormatNegotiation` active, a URL that
/// names no format is prepared in the format its `Accept` header picks, and every response to
/// it (304s and errors too) carries `Vary: Accept`. With a `FallbackImage`, a source that fails
/// is answered with the fallback prepared with the URL's options (see `FallbackImage`).
final class ImageService: Sendable {
    let pipeline: ImagePipeline
    /// Seconds clients and CDNs may keep an image (`max-age`), unless its URL expires sooner.
    private let ttl: Int
    /// The time an expiring URL (`exp:`) is compared with.
    private let clock: @Sendable () -> Date
    /// Served when a source fails; nil for none.
    private let fallback: FallbackImage?
    private let parser: ServeURLParser
    /// Paths that parsed and verified, with what they ask for: parsing is a pure function of the
    /// path (and the key), so a path asked for again skips it. About 4 MiB at most (a path's bytes
    /// and 512 a request), least recently used dropped first.
    private let parsedPaths = MemoryCache<String, ServeRequest>(costLimit: 4 << 20, maxEntryShare: 0.01)
    private let tags = EntityTags()
    /// The answers given at once lately, by path and negotiated format (see `ServedAnswers`).
    private let answers: ServedAnswers
    private let negotiation: FormatNegotiation
    /// The responses the server sent, by status (the server's observer records them).
    let metrics: ServerMetrics
    /// The server, for its state (`/health`) and statistics (`/metrics`), once it runs.
    private let server: ServerReference
    /// `/info/...` paths: the facts of the variant an image path names.
    private let info: InfoService

    init(
        pipeline: ImagePipeline, urls: ServeURLConfiguration, ttl: Int, clock: @escaping @Sendable () -> Date,
        fallback: FallbackImage?, negotiation: FormatNegotiation, metrics: ServerMetrics, server: ServerReference
    ) {
        self.pipeline = pipeline
        self.negotiation = negotiation
        self.ttl = ttl
        self.clock = clock
        self.fallback = fallback
        answers = ServedAnswers(pipeline: pipeline)
        info = InfoService(pipeline: pipeline)
        parser = ServeURLParser(configuration: urls)
        self.metrics = metrics
        self.server = server
    }

    /// The response to `request`; an image's carries its cache outcome as its note, for the
    /// access log.
    func respond(to request: HTTPRequest) async -> HTTPResponse {
        switch request.path {
        case "/health": return await health()
        case "/metrics": return metricsResponse()
        default:
            let format = negotiation.format(for: request.headers)
            var varies = false
            do {
                if let imagePath = InfoService.imagePath(request.path) {
                    let served = try parse(imagePath)
                    _ = try served.maxAge(ttl: ttl, now: clock())
                    let imageRequest = try await imageRequest(for: served)
                    // An expiring URL's answer is made each time, with the max-age left then.
                    return try await info.respond(
                        path: request.path, request: imageRequest, sourceURL: served.sourceURL,
                        maxAge: { [clock, ttl] in try served.maxAge(ttl: ttl, now: clock()) }, keeps: served.expires == nil,
                        ifNoneMatch: request.headers["if-none-match"])
                }
                let served = try parse(request.path)
                varies = negotiates(served)
                _ = try served.maxAge(ttl: ttl, now: clock())
                let prepared = try await prepare(served, in: format)
                // Checked again: the answer's max-age is what is left once it is ready.
                let maxAge = try served.maxAge(ttl: ttl, now: clock())
                if let failure = prepared.sourceFailure, let fallback {
                    return fallback.response(prepared.summary, failure: failure, maxAge: maxAge, varies: varies)
                }
                return imageAnswer(prepared.summary, varies: varies, maxAge: maxAge).answer
                    .response(ifNoneMatch: request.headers["if-none-match"])
            } catch {
                return failure(error, varies: varies)
            }
        }
    }

    /// The response to `request` when it needs no waiting: a URL that does not parse or verify,
    /// or a variant the pipeline has at hand (`ImagePipeline.storedSummary(for:)`); nil for the
    /// rest (`respond(to:)` answers them). For the server's immediate handler.
    func respondAtOnce(to request: HTTPRequest) -> HTTPResponse? {
        guard request.path != "/health", request.path != "/metrics" else { return nil }
        let ifNoneMatch = request.headers["if-none-match"]
        if InfoService.imagePath(request.path) != nil { return info.keptResponse(for: request.path, ifNoneMatch: ifNoneMatch) }
        let format = negotiation.format(for: request.headers)
        // The memo's key: the path, and the format negotiated when requests are.
        let memoKey = negotiation.isActive ? request.path + "\n" + (format?.rawValue ?? "auto") : request.path
        if let answer = answers.answer(for: memoKey) { return answer.response(ifNoneMatch: ifNoneMatch) }
        let served: ServeRequest
        let maxAge: Int
        do {
            served = try parse(request.path)
            maxAge = try served.maxAge(ttl: ttl, now: clock())
        } catch {
            return failure(error, varies: false)
        }
        guard case .ready(let imageRequest) = served.plan,
              let summary = pipeline.storedSummary(for: negotiated(imageRequest, in: format))
        else { return nil }
        let (answer, file) = imageAnswer(summary, varies: negotiates(served), maxAge: maxAge)
        // An expiring URL's max-age shrinks as time passes: its answer is made each time.
        if let file, served.expires == nil {
            answers.keep(answer, for: memoKey, summary: summary, path: file.path, version: file.version)
        }
        return answer.response(ifNoneMatch: ifNoneMatch)
    }

    /// The error's status (see `ErrorStatus`), one line of text, never stored; `Vary: Accept`
    /// when the route negotiates its format.
    private func failure(_ error: any Error, varies: Bool) -> HTTPResponse {
        let failure = ErrorStatus(error)
        var headers: HTTPHeaders = ["Cache-Control": "no-store"]
        if varies { headers.set(name: "Vary", value: "Accept") }
        return .text(status: failure.status, failure.message, headers: headers)
    }

    /// True when `served`'s format is negotiated: requests are, and its URL names no format (a
    /// slice, PNG unless named, never is).
    private func negotiates(_ served: ServeRequest) -> Bool {
        guard negotiation.isActive, case .ready(let request) = served.plan else { return false }
        return request.outputFormat == .automatic
    }

    /// `request` in the negotiated `format` (see `FormatNegotiation.request(_:in:)`); as it is for nil.
    private func negotiated(_ request: ImageRequest, in format: ImageFormat?) -> ImageRequest {
        format.map { FormatNegotiation.request(request, in: $0) } ?? request
    }

    /// What `path` asks for (see `ServeURLParser.parse(path:)`), remembered.
    private func parse(_ path: String) throws(ServeURLError) -> ServeRequest {
        if let known = parsedPaths.value(for: path) { return known }
        let served = try parser.parse(path: path)
        parsedPaths.set(served, for: path, cost: path.utf8.count + 512)
        return served
    }

    /// The variant `served` names, in the negotiated `format` when it names none, prepared
    /// (fetched, rendered, stored) as `imgcache fetch` does, or the fallback's in its place when
    /// the source fails; a wallpaper slice once the screenshot's size is known (without a
    /// fallback: its region follows from the screenshot).
    private func prepare(_ served: ServeRequest, in format: ImageFormat?) async throws -> FallbackSummary {
        guard case .ready(let request) = served.plan else {
            return FallbackSummary(summary: try await pipeline.prepare(try await imageRequest(for: served)))
        }
        let chosen = negotiated(request, in: format)
        guard let fallback else { return FallbackSummary(summary: try await pipeline.prepare(chosen)) }
        return try await pipeline.prepare(chosen, fallback: fallback.image)
    }

    /// The request for the variant `served` names as its URL says (no format negotiated); for a
    /// wallpaper slice, once the screenshot's size is known (fetched through the caches).
    private func imageRequest(for served: ServeRequest) async throws -> ImageRequest {
        switch served.plan {
        case .ready(let request):
            return request
        case .slice(let slice):
            let screenshot = try await pipeline.data(for: served.sourceURL)
            let size = try ImageDecoder.inspect(.data(screenshot.data)).size
            return try slice.request(screenshotSize: size)
        }
    }

    /// The answer serving `summary`'s variant (with `Vary: Accept` when `varies`, and
    /// `max-age=maxAge`), and its file (with the version its tag was computed from) when it is stored.
    private func imageAnswer(
        _ summary: ImageSummary, varies: Bool, maxAge: Int
    ) -> (answer: ServedAnswers.Answer, file: (path: String, version: StoredFileVersion)?) {
        var headers: HTTPHeaders = [
            "Content-Type": summary.format.mimeType, "Cache-Control": "public, max-age=\(maxAge)",
        ]
        if varies { headers.set(name: "Vary", value: "Accept") }
        // A file URL's path is not free to compute: once.
        let path = summary.fileURL?.path
        let tag = tags.tag(for: summary, path: path)
        if let tag { headers.set(name: "ETag", value: tag.tag) }
        let body: HTTPResponse.Body = path.map { .file(path: $0) } ?? .bytes([UInt8](summary.unstoredData ?? Data()))
        let answer = ServedAnswers.Answer(headers: headers, tag: tag?.tag, body: body, note: summary.cacheOutcome.rawValue)
        guard let path, let version = tag?.version else { return (answer, nil) }
        return (answer, (path, version))
    }

    /// 200 when the cache folder answers (its index reads) and, with a Redis tier, Redis does;
    /// 503 naming what does not, or while the server drains (so that a load balancer stops
    /// sending requests).
    private func health() async -> HTTPResponse {
        var problems = await pipeline.healthProblems()
        if let state = server.server?.state, state != .running { problems.insert("the server is shutting down", at: 0) }
        let headers: HTTPHeaders = ["Cache-Control": "no-store"]
        guard problems.isEmpty else { return .text(status: 503, problems.joined(separator: "; "), headers: headers) }
        return .text(status: 200, "ok", headers: headers)
    }

    private func metricsResponse() -> HTTPResponse {
        var text = pipeline.metrics.prometheusText()
        if let statistics = server.server?.statistics { text += metrics.prometheusText(statistics: statistics) }
        return HTTPResponse(
            status: 200, headers: ["Content-Type": "text/plain; version=0.0.4", "Cache-Control": "no-store"],
            body: .bytes(Array(text.utf8)))
    }
}
