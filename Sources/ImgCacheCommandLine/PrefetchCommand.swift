#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ImgCache

/// `imgcache prefetch [FILE|-] [target options] [--json]`
enum PrefetchCommand: Command {
    static let name = "prefetch"
    static let summary = "fetch many URLs into the cache concurrently, with progress and a summary"
    static let usage = "imgcache prefetch [FILE|-] [options]"
    static let about = """
        Reads URLs (or local paths), one a line, from FILE or standard input ('-' or no FILE) as
        it goes, keeping nothing per URL, so a list of millions can be given; blank lines and lines
        starting with '#' are skipped, and a line over 64 KiB is refused (counted as failed, not
        read). Fetches them concurrently through the cache (8 downloads, 4 connections to a host,
        and one decode per core at a time; the targets of one URL share one download and decode),
        preparing each for the target, with a count of those done when standard error is a
        terminal. Ends with a summary: how many came from the network, were revalidated or were
        already cached, and the first 100 failures with their reasons (then how many more).
        Exits 11 when any URL failed.
        """
    static let options: [OptionHelp] = TargetArguments.options + ProcessingArguments.options
        + TargetArguments.cacheOptions + RequestArguments.options + FallbackImageOption.options + [
        OptionHelp("--json", """
            print the summary as JSON, each URL's item (its path or error) as it
            finishes, the totals after them
            """),
        OptionHelp("--metrics", "FILE", .file, """
            write the pipeline's metrics to FILE at exit, in Prometheus text format
            (requests by outcome, errors by kind, origin requests, bytes, stage
            durations), for a node exporter's textfile collector
            """),
    ]

    static func run(_ arguments: inout ArgumentList) throws {
        let fetch = try TargetArguments.parse(&arguments, cacheDirectory: true)
        let options = try RequestArguments.parse(&arguments)
        let processors = try ProcessingArguments.parse(&arguments).processors()
        let json = arguments.flag("--json")
        let metricsFile = try arguments.value("--metrics")
        let fallback = try arguments.value("--fallback-image").map(FallbackImageOption.image)
        let words = try arguments.positionals(arguments.isEmpty ? 0 : 1, usage: "imgcache prefetch [FILE|-] [options]")
        let list = try URLListReader(path: words.first ?? "-")
        let pipeline = try fetch.pipeline(applying: options)
        defer { shutDown(pipeline) }
        if let fallback { try FallbackImageOption.check(fallback, pipeline: pipeline) }
        let reporter = PrefetchReporter(json: json, progress: ProgressBar(total: nil, enabled: isatty(STDERR_FILENO) == 1 && !json))
        let groups = PrefetchGroups(lines: list, reporter: reporter) { source in
            try fetch.requests(for: source).map { request in
                // A background job: requests a user waits for (in a process sharing the pipeline) go first.
                var request = options.applied(to: request)
                request.priority = .low
                request.processors = processors
                return request
            }
        }
        try runBlocking {
            for try await item in pipeline.prefetch(stream: groups, fallback: fallback) {
                let source = groups.source(of: item.index)
                // The summary and the exit code are the sources'; standard error says which got the fallback.
                let result = item.result.flatMap { prepared -> Result<ImageSummary, any Error> in
                    guard let failure = prepared.sourceFailure else { return .success(prepared.summary) }
                    CommandLineTool.printError(FallbackImageOption.note(
                        name, source: source, failure: failure, path: prepared.summary.fileURL?.path ?? "(not stored)"))
                    return .failure(failure)
                }
                try reporter.report(result, source: source)
            }
        }
        if let metricsFile { try DecodeCommand.write(Data(pipeline.metrics.prometheusText().utf8), to: metricsFile) }
        try reporter.finish()
        if reporter.failureCount > 0 { throw PrefetchFailed(count: reporter.failureCount, total: reporter.total) }
    }
}

/// Some URLs of a prefetch failed (exit code 11); the summary lists them.
struct PrefetchFailed: Error, CustomStringConvertible {
    let count: Int
    let total: Int
    var description: String { "\(count) of \(total) URLs failed" }
}
