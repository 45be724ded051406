import Foundation
import ImgCache
import ImgCacheServer
import ImgCacheServerURLs

/// `imgcache serve [--listen 127.0.0.1:8080] [options]`
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "serve imgproxy-style signed image URLs over HTTP, through the cache"
    static var operands: OptionHelp.Value? { nil }
    static let usage = "imgcache serve [options]"
    static let about = """
        Serves /SIGNATURE/OPTIONS/plain/SOURCE[@EXT] and /SIGNATURE/OPTIONS/BASE64URL-SOURCE[.EXT]
        (imgproxy's URL format; options in docs/serving.md), /health and /metrics
        (Prometheus text), through the cache folder. URLs are signed with HMAC-SHA256 of the
        salt and the path under the key: $IMGCACHE_KEY and $IMGCACHE_SALT, hex. SIGTERM and SIGINT
        stop accepting, let requests in flight finish within --drain-seconds, and exit 0.
        Every option is also an environment variable: IMGCACHE_ and its name in capitals with
        '_' for '-' (IMGCACHE_MAX_IN_FLIGHT=32); the option wins.
        """
    static let helpColumn = 23
    static let options: [OptionHelp] = [
        OptionHelp("--listen", "ADDR", .text, "address and port, numeric (default 127.0.0.1:8080; [::1]:8080 for IPv6)"),
        OptionHelp("--allow-unsigned", "accept URLs without a valid signature ('insecure'); refused when a key is set"),
        OptionHelp("--ttl", "SECONDS", .text, """
            Cache-Control max-age of images (default 31536000, a year: signed URLs
            name immutable results)
            """),
        OptionHelp("--drain-seconds", "S", .text, "how long requests in flight may finish after SIGTERM (default 10)"),
        OptionHelp("--max-connections", "N", .text, "client connections at once (default 1024)"),
        OptionHelp("--threads", "N", .text, """
            threads reading requests and writing responses (default: one per
            core, at most 4)
            """),
        OptionHelp("--max-in-flight", "N", .text, "requests answered at once; more wait in a queue (default 64)"),
        OptionHelp("--max-queue", "N", .text, "requests waiting; more get 503 with Retry-After (default 256)"),
        OptionHelp("--request-timeout", "S", .text, "longest a request may take (default 30; 504 past it)"),
        OptionHelp("--auto-format", "LIST", .list(ServeOptions.autoFormatChoices.map(\.rawValue)), """
            answer a URL naming no format in the first of LIST (avif, webp or
            both, comma-separated) that the request's Accept header names
            (image/avif, image/webp; not image/*), with Vary: Accept, as
            imgproxy's AUTO_AVIF and AUTO_WEBP (default none: automatic)
            """),
        OptionHelp("--jpeg-progressive", """
            progressive JPEGs unless a URL's jpgo says otherwise (imgproxy's
            IMGPROXY_JPEG_PROGRESSIVE)
            """),
        OptionHelp("--chroma", "420|444", .words(ChromaSubsampling.allCases.map(\.rawValue)), """
            JPEG and AVIF chroma unless a URL's ch or jpgo says otherwise
            (default: JPEG 420; AVIF 420 below quality 90, 444 from 90)
            """),
        OptionHelp("--png-quantize", """
            PNGs with a palette and alpha unless a URL's pngo says otherwise
            (imgproxy's IMGPROXY_PNG_QUANTIZE)
            """),
        OptionHelp("--png-quantization-colors", "N", .text, "that palette's most colours, 2-256 (default 256)"),
        OptionHelp("--preset", "NAME=OPTIONS", .text, """
            a preset, as imgproxy's: pr:NAME in a URL stands for OPTIONS
            (e.g. thumb=rs:fill:300:300/q:80); 'default' applies to every URL
            first; repeatable (variable IMGCACHE_PRESETS: comma-separated)
            """),
        OptionHelp("--presets-file", "FILE", .file, "presets, one NAME=OPTIONS a line, '#' comments (imgproxy's format)"),
        OptionHelp("--only-presets", """
            the segment after the signature is preset names (NAME:NAME), and
            URLs write no options (imgproxy's ONLY_PRESETS)
            """),
        OptionHelp("--fallback-image", "FILE|URL", .file, """
            served, prepared with the URL's options, when its source fails
            (404, 5xx, time-out, refused, corrupt, not an image); read and
            decoded at start (exit 2 when it cannot be), cached under its
            own key; responses say why in a Fallback-Image header
            """),
        OptionHelp("--fallback-status", "N", .text, "status of a fallback response (default 200; 0: the failure's own)"),
        OptionHelp("--fallback-ttl", "S", .text, "Cache-Control max-age of a fallback response (default 60)"),
        OptionHelp("--access-log", "FILE|-", .file, """
            a JSON line per request: time, method, path without signature,
            status, bytes, ms, cache outcome (default none; - is standard output)
            """),
        OptionHelp("--ignore-query", "L", .text, "query items of source URLs left out of cache keys (see fetch)"),
        OptionHelp("--cache-dir", "DIR", .directory, "the cache folder (default as for fetch)"),
        CacheDirectoryOption.sizeLimitHelp,
        OptionHelp("--allowed-hosts", "L", .text, "fetch sources only from these hosts (names and *.domain patterns)"),
        OptionHelp("--allow-private-sources", """
            fetch sources whose address is loopback, private, link-local,
            multicast or unspecified (default: refused with 403, first URL and
            every redirect; https names can still rebind: docs/command-line.md)
            """),
    ] + RedisOption.options

    static func run(_ arguments: inout ArgumentList) throws {
        let options = try ServeOptions.parse(&arguments, environment: ProcessInfo.processInfo.environment)
        _ = try arguments.positionals(0, usage: "imgcache serve [options]")
        let pipeline = try ImagePipeline(configuration: options.pipeline)
        if let fallback = options.server.fallback {
            do {
                try FallbackImageOption.check(fallback.image, pipeline: pipeline)
            } catch {
                shutDown(pipeline)
                throw error
            }
        }
        let server = try ImageServer(pipeline: pipeline, configuration: options.server)
        CommandLineTool.printError(
            "imgcache serve: listening on http://\(server.address) (\(options.isSigned ? "signed URLs" : "unsigned URLs allowed"))")
        let finished = DispatchSemaphore(value: 0)
        let drain = options.drainSeconds
        let signals = TerminationSignals { _ in
            Task {
                let summary = await server.shutdown(drainSeconds: drain)
                await pipeline.shutdown()
                CommandLineTool.printError(
                    "imgcache serve: stopped; \(summary.requestsDrained) requests finished while draining, \(summary.requestsCutOff) cut off")
                finished.signal()
            }
        }
        finished.wait()
        signals.cancel()
    }
}
