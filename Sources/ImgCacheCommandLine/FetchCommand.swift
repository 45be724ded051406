import Foundation
import ImgCache

/// `imgcache fetch URL|PATH [target options] [--json] [-o FILE]`
enum FetchCommand: Command {
    static let name = "fetch"
    static let summary = "fetch an image through the cache and prepare it for a size or a widget"
    static let usage = "imgcache fetch URL|PATH [options]"
    static let about = """
        Fetches URL (http or https; a local PATH is read as a file) through the shared cache, decodes
        it to the target while decoding, stores the result and prints its path. With several
        targets (lists in --device and --widget) the original is downloaded and decoded once for
        all of them, and a path is printed for each (a JSON array with --json). A second fetch is
        served from the cache; after the original's HTTP freshness ends it is revalidated (a 304
        downloads nothing).
        """
    static let options: [OptionHelp] = TargetArguments.options + ProcessingArguments.options
        + TargetArguments.cacheOptions + RequestArguments.options + FallbackImageOption.options + [
        OptionHelp("--cache-key", "KEY", .text, "the image's own cache key, instead of its URL (a signed URL's object id)"),
        OptionHelp("--json", """
            print a JSON object: path, pixel and point size, scale, frames, format,
            bytes, cache outcome (memory, disk, shared, revalidated, network) and timings
            (with --timeline-entries the decoded bytes per entry and in all,
            against the extension's limit; with --poster, when it decoded, the
            frame kept: poster_frame)
            """),
        OptionHelp(["-o", "--output"], "FILE", .file, """
            also write the result to FILE; its extension picks the format
            (.png, .jpg, .gif, .webp, .avif), so --format goes without it
            """),
    ]

    static func run(_ arguments: inout ArgumentList) throws {
        let fetch = try TargetArguments.parse(&arguments, cacheDirectory: true)
        var options = try RequestArguments.parse(&arguments)
        let processors = try ProcessingArguments.parse(&arguments).processors()
        let cacheKey = try arguments.value("--cache-key")
        let fallback = try arguments.value("--fallback-image").map(FallbackImageOption.image)
        let json = arguments.flag("--json")
        let output = try arguments.value("-o", "--output")
        let source = try arguments.positionals(1, usage: "imgcache fetch URL|PATH [options]")[0]
        if let output {
            guard options.format == nil else { throw UsageError("-o's extension picks the format: give --format or -o") }
            options.format = try outputFormat(forPath: output, quality: options.quality).request
        }
        let requests = try fetch.requests(for: source).map { request in
            var request = options.applied(to: request)
            request.cacheKey = cacheKey
            request.processors = processors
            return request
        }
        let pipeline = try fetch.pipeline(applying: options)
        defer { shutDown(pipeline) }
        if let fallback { try FallbackImageOption.check(fallback, pipeline: pipeline) }
        guard requests.count == 1 else {
            if output != nil { throw UsageError("-o takes one target; give one --device and one --widget") }
            // Several targets: one download and one decode for all, a path (or report) for each.
            let prepared: [FallbackSummary]
            if let fallback {
                prepared = try runBlocking { await pipeline.prefetch(requests, fallback: fallback) }.map { try $0.get() }
            } else {
                prepared = try runBlocking { await pipeline.prefetch(requests) }.map { FallbackSummary(summary: try $0.get()) }
            }
            let reports = prepared.map { FetchReport(path: $0.summary.fileURL?.path ?? Self.notStored, response: $0.summary) }
            print(json ? try FetchReport.json(reports.map { $0.object() }) : reports.map(\.path).joined(separator: "\n"))
            try noteFallbacks(prepared, source: source, paths: reports.map(\.path))
            return
        }
        let prepared: FallbackSummary
        if let fallback {
            prepared = try runBlocking { try await pipeline.prepare(requests[0], fallback: fallback) }
        } else {
            prepared = FallbackSummary(summary: try runBlocking { try await pipeline.prepare(requests[0]) })
        }
        let response = prepared.summary
        if let output { try DecodeCommand.write(try response.encodedData(), to: output) }
        let path = output ?? response.fileURL?.path ?? Self.notStored
        if json {
            print(try FetchReport(path: path, response: response).json())
        } else {
            print(path)
        }
        try noteFallbacks([prepared], source: source, paths: [path])
    }

    /// Says on standard error which targets got the fallback image (at `paths`), then throws the
    /// first source failure, so that the exit code is the one the failure gives without a fallback.
    private static func noteFallbacks(_ prepared: [FallbackSummary], source: String, paths: [String]) throws {
        let failures = zip(prepared, paths).compactMap { item, path in item.sourceFailure.map { ($0, path) } }
        for (failure, path) in failures {
            CommandLineTool.printError(FallbackImageOption.note(name, source: source, failure: failure, path: path))
        }
        if let (first, _) = failures.first { throw first }
    }

    private static let notStored = "(not stored: the server sent no-store, --store none, or over --cache-size-limit)"

    /// The output format `path`'s extension names, as a format and as a request's output format
    /// at `quality` (nil: the format's default).
    static func outputFormat(forPath path: String, quality: Int?) throws
        -> (format: ImageFormat, request: ImageRequest.OutputFormat)
    {
        let name = URL(fileURLWithPath: path).pathExtension
        let written: [String: ImageFormat] = ["png": .png, "jpg": .jpeg, "jpeg": .jpeg, "gif": .gif, "webp": .webp, "avif": .avif]
        guard let request = try OutputFormatName.format(name, quality: quality), let format = written[name.lowercased()] else {
            throw UsageError("cannot tell the output format of '\(path)'; use .png, .jpg, .gif, .webp or .avif")
        }
        return (format, request)
    }
}

/// Runs async work from the synchronous command line and waits for it.
func runBlocking<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
    let semaphore = DispatchSemaphore(value: 0)
    let box = ResultBox<Value>()
    Task {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        semaphore.signal()
    }
    semaphore.wait()
    return try box.result!.get()
}

/// Shuts `pipeline` down and waits until it has (see `ImagePipeline.shutdown()`): its work done,
/// its Redis counters sent, its threads ended and its cache index closed. Every verb that makes a
/// pipeline calls it before returning, so that no thread of the pipeline's is still ending when
/// the process exits, and so that the next process to open the cache finds it closed cleanly.
func shutDown(_ pipeline: ImagePipeline) {
    _ = try? runBlocking { await pipeline.shutdown() }
}

/// Carries a result from a task to the thread waiting for it (written before the semaphore is
/// signalled, read after it is waited on).
private final class ResultBox<Value>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}
