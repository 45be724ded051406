import Foundation
import ImgCache

/// The options `fetch` and `prefetch` share about how an image is requested and stored: headers,
/// cache keys, cache and storage policies, and the format of the cached variant.
struct RequestArguments {
    static let options: [OptionHelp] = [
        OptionHelp(["-H", "--header"], "'N: V'", .text, """
            send this header with every download (repeatable); 'Name;' sends it
            empty. Names and values are checked (exit 2); credentials
            (Authorization, Cookie) are not sent on a redirect to another origin
            """),
        OptionHelp("--header-file", "FILE", .file, """
            headers from FILE, one 'Name: value' a line (blank lines and lines
            starting with '#' skipped), so that secrets stay out of the process list
            """),
        OptionHelp("--user-agent", "UA", .text, "the User-Agent header (default imgcache/VERSION)"),
        OptionHelp("--ignore-query", "L", .text, """
            query items left out of cache keys, comma-separated, case-insensitive;
            a trailing * is a prefix, e.g. 'X-Amz-*,Signature,Expires,token'
            (default $IMGCACHE_IGNORE_QUERY): presigned URLs of one object share it
            """),
        OptionHelp("--reload", """
            revalidate the stored original even when fresh (a 304 downloads
            nothing) and render the variants again
            """),
        OptionHelp("--cache-only", """
            never the network: a URL with nothing stored fails (fetch exits 13;
            prefetch lists it and exits 11)
            """),
        OptionHelp("--store", "WHAT", .words(RequestArguments.storagePolicies.map(\.name)), """
            all (default), variants (the original is used once, never written)
            or none (nothing written; -o still writes the result to its file)
            """),
        OptionHelp("--format", "F", .words(OutputFormatName.names), """
            the cached variant's format: auto (default: GIF for several frames,
            else JPEG when opaque, else PNG), jpeg, png, gif, webp (every frame;
            lossy when opaque, else lossless), webp-lossless or avif (every
            frame, lossy; alpha kept). No heic: its encoder, x265, is GPL
            """),
        OptionHelp("--quality", "Q", .text, """
            JPEG, WebP or AVIF quality 1-100 of the cached variant (default 85;
            AVIF 63, imgproxy's)
            """),
        OptionHelp("--max-bytes", "N", .text, """
            the variant's byte cap: JPEG, WebP and AVIF at the largest quality up to
            Q that fits (WebP lossy then), other formats as they are; what cannot
            fit fails (exit 14)
            """),
    ] + EncoderArguments.options

    var headers: [String: String] = [:]
    var userAgent: String?
    var ignoredQueryItems: [String] = []
    var cachePolicy = ImageRequest.CachePolicy.useCache
    /// `--store`'s words and the policies they name.
    static let storagePolicies: [(name: String, policy: ImageRequest.StoragePolicy)] = [
        ("all", .all), ("variants", .variantsOnly), ("none", .none),
    ]

    var storage = ImageRequest.StoragePolicy.all
    /// `--format`; nil when not given.
    var format: ImageRequest.OutputFormat?
    var quality: Int?
    /// `--max-bytes`; nil when not given.
    var maxBytes: Int?
    /// `--progressive`, `--chroma` and `--palette`.
    var encoderControls = EncoderControls()

    /// Reads the options; `environment` gives `IMGCACHE_IGNORE_QUERY`.
    static func parse(
        _ arguments: inout ArgumentList, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> RequestArguments {
        var result = RequestArguments()
        var lines = try arguments.values("-H", "--header")
        if let file = try arguments.value("--header-file") { lines = try headerLines(file) + lines }
        result.headers = HTTPHeaderField.dictionary(try lines.map { line in
            do { return try HTTPHeaderField(parsing: line) } catch let error as ImgCacheError { throw UsageError("\(error)") }
        })
        result.userAgent = try arguments.value("--user-agent")
        if let agent = result.userAgent {
            do { _ = try HTTPHeaderField(name: "User-Agent", value: agent) } catch { throw UsageError("--user-agent: \(error)") }
        }
        result.ignoredQueryItems = queryItems(try arguments.value("--ignore-query") ?? environment["IMGCACHE_IGNORE_QUERY"])
        let reload = arguments.flag("--reload"), cacheOnly = arguments.flag("--cache-only")
        guard !(reload && cacheOnly) else { throw UsageError("--reload and --cache-only exclude each other") }
        result.cachePolicy = reload ? .reload : cacheOnly ? .cacheOnly : .useCache
        result.storage = try arguments.value("--store", expected: "all, variants or none") { word in
            storagePolicies.first { $0.name == word }?.policy
        } ?? .all
        result.quality = try arguments.value("--quality", expected: "a number from 1 to 100") { word in
            Int(word).flatMap { (1...100).contains($0) ? $0 : nil }
        }
        result.maxBytes = try maxBytes(&arguments)
        result.encoderControls = try EncoderArguments.parse(&arguments)
        if let name = try arguments.value("--format") {
            guard let format = try OutputFormatName.format(name, quality: result.quality) else {
                throw UsageError("--format expects \(OutputFormatName.formatNames), got '\(name)'")
            }
            result.format = format
        }
        return result
    }

    /// `request` with these options; its output format is `--format`'s when given.
    func applied(to request: ImageRequest) -> ImageRequest {
        var request = request
        request.headers = headers
        request.cachePolicy = cachePolicy
        request.storage = storage
        if let format { request.outputFormat = format }
        request.quality = quality
        request.maxBytes = maxBytes
        request.encoderControls = encoderControls
        return request
    }

    /// `--max-bytes N`: a whole number of bytes from 1 on; nil when not given.
    static func maxBytes(_ arguments: inout ArgumentList) throws -> Int? {
        try arguments.value("--max-bytes", expected: "a number of bytes, at least 1") { word in
            Int(word).flatMap { $0 >= 1 ? $0 : nil }
        }
    }

    /// `configuration` with the user agent and the key policy.
    func applied(to configuration: ImagePipeline.Configuration) -> ImagePipeline.Configuration {
        var configuration = configuration
        if let userAgent { configuration.loading.userAgent = userAgent }
        configuration.keyPolicy = CacheKeyPolicy(ignoredQueryItems: ignoredQueryItems)
        return configuration
    }

    /// The names of a comma-separated `--ignore-query` list (none for nil).
    static func queryItems(_ list: String?) -> [String] {
        (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The header lines of `path`: one a line, blank lines and '#' comments skipped.
    private static func headerLines(_ path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImgCacheError.io(path: path, detail: "cannot read the header file")
        }
        // A byte order mark some editors write is not part of the first header's name.
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text.split(whereSeparator: \.isNewline).map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#") }
    }
}
