#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ImgCache

/// `imgcache prefetch [FILE|-] [target options] [--json]`
enum PrefetchCommand: Command {
    static let name = "prefetch"
    static let summary = "fetch many URLs into the cache concurrently, with progress and a summary"
    static let help = """
        Usage: imgcache prefetch [FILE|-] [options]

        Reads URLs (or local paths), one a line, from FILE or standard input ('-' or no FILE); blank
        lines and lines starting with '#' are skipped. Fetches them concurrently through the cache
        (8 downloads, 4 connections to a host, and one decode per core at a time; the targets of one URL share one download and decode), preparing each for the target, with a
        progress bar when standard error is a terminal. Ends with a summary: how many came from
        the network, were revalidated or were already cached, and every failure with its reason.
        Exits 11 when any URL failed.

        Options:
        \(TargetArguments.help)
        \(ProcessingArguments.help)
        \(TargetArguments.cacheHelp)
        \(RequestArguments.help)
        \(FallbackImageOption.help)
          --json              print the summary as JSON (every URL with its path or error)
          --metrics FILE      write the pipeline's metrics to FILE at exit, in Prometheus text format
                              (requests by outcome, errors by kind, origin requests, bytes, stage
                              durations), for a node exporter's textfile collector
        """

    static func run(_ arguments: inout ArgumentList) throws {
        let fetch = try TargetArguments.parse(&arguments, cacheDirectory: true)
        let options = try RequestArguments.parse(&arguments)
        let processors = try ProcessingArguments.parse(&arguments).processors()
        let json = arguments.flag("--json")
        let metricsFile = try arguments.value("--metrics")
        let fallback = try arguments.value("--fallback-image").map(FallbackImageOption.image)
        let words = try arguments.positionals(arguments.isEmpty ? 0 : 1, usage: "imgcache prefetch [FILE|-] [options]")
        // One request per source and target, each with the source it came from.
        let pairs = try readSources(words.first ?? "-").flatMap { source in
            try fetch.requests(for: source).map { request in
                // A background job: requests a user waits for (in a process sharing the pipeline) go first.
                var request = options.applied(to: request)
                request.priority = .low
                request.processors = processors
                return (source, request)
            }
        }
        let sources = pairs.map(\.0), requests = pairs.map(\.1)
        let pipeline = try fetch.pipeline(applying: options)
        defer { shutDown(pipeline) }
        if let fallback { try FallbackImageOption.check(fallback, pipeline: pipeline) }
        let progress = ProgressBar(total: requests.count, enabled: isatty(STDERR_FILENO) == 1 && !json)
        let results: [Result<ImageSummary, any Error>]
        if let fallback {
            let prepared = try runBlocking {
                await pipeline.prefetch(requests, fallback: fallback) { done, _ in progress.update(done) }
            }
            progress.finish()
            // The summary and the exit code are the sources'; standard error says which got the fallback.
            results = zip(sources, prepared).map { source, result in
                guard case .success(let item) = result, let failure = item.sourceFailure else { return result.map(\.summary) }
                CommandLineTool.printError(FallbackImageOption.note(
                    name, source: source, failure: failure, path: item.summary.fileURL?.path ?? "(not stored)"))
                return .failure(failure)
            }
        } else {
            results = try runBlocking {
                await pipeline.prefetch(requests) { done, _ in progress.update(done) }
            }
            progress.finish()
        }
        if let metricsFile { try DecodeCommand.write(Data(pipeline.metrics.prometheusText().utf8), to: metricsFile) }
        let summary = PrefetchSummary(sources: sources, results: results)
        print(json ? try summary.json() : summary.text())
        if summary.failureCount > 0 { throw PrefetchFailed(count: summary.failureCount, total: sources.count) }
    }

    private static func readSources(_ path: String) throws -> [String] {
        let text: String
        if path == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ImgCacheError.io(path: path, detail: "cannot read the URL list")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}

/// Some URLs of a prefetch failed (exit code 11); the summary lists them.
struct PrefetchFailed: Error, CustomStringConvertible {
    let count: Int
    let total: Int
    var description: String { "\(count) of \(total) URLs failed" }
}
