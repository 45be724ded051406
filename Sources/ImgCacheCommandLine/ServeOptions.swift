import Foundation
import ImgCache
import ImgCacheServer
import ImgCacheServerURLs

/// The settings of `imgcache serve`, from its options, each of which may also come from the
/// environment variable `IMGCACHE_` + its name in capitals with `_` for `-` (the option wins);
/// the cache folder and Redis read `IMGCACHE_DIR` and `IMGCACHE_REDIS` as the other verbs do.
struct ServeOptions {
    var pipeline: ImagePipeline.Configuration
    var server: ImageServer.Configuration
    /// Seconds requests in flight may take to finish after SIGTERM or SIGINT.
    var drainSeconds: TimeInterval
    /// False when unsigned URLs are accepted.
    var isSigned: Bool

    /// Reads the options (and their variables); `invalidArgument` or a usage error (exit 2) for a
    /// value out of its range, a key without a salt, or neither a key nor `--allow-unsigned`.
    static func parse(_ arguments: inout ArgumentList, environment: [String: String]) throws -> ServeOptions {
        var reader = Reader(arguments: arguments, environment: environment)
        defer { arguments = reader.arguments }
        var http = HTTPServer.Configuration()
        if let listen = try reader.value("listen") {
            guard let address = NetworkAddress(listen) else {
                throw UsageError("--listen expects a numeric address and port such as 127.0.0.1:8080 or [::1]:8080, got '\(listen)'")
            }
            http.address = address
        }
        http.maxConnections = try reader.number("max-connections", in: 1...65_536) ?? http.maxConnections
        http.threads = try reader.number("threads", in: 1...64) ?? http.threads
        http.maxInFlight = try reader.number("max-in-flight", in: 1...4096) ?? http.maxInFlight
        http.maxQueued = try reader.number("max-queue", in: 0...100_000) ?? http.maxQueued
        http.requestTimeout = try reader.seconds("request-timeout", in: 0.1...3600) ?? http.requestTimeout
        let drainSeconds = try reader.seconds("drain-seconds", in: 0...3600) ?? 10
        let ttl = try reader.number("ttl", in: 0...315_360_000) ?? 31_536_000
        let accessLog = try reader.value("access-log")
        let autoFormats = try reader.value("auto-format").map(Self.autoFormats) ?? []
        let allowsUnsigned = try reader.flag("allow-unsigned")
        let allowsPrivateSources = try reader.flag("allow-private-sources")

        var pipeline = ImagePipeline.Configuration()
        pipeline.loading.userAgent = "imgcache/\(CommandLineTool.version)"
        // URLs strangers hand the server must not reach its own network (SSRF).
        pipeline.loading.refusesPrivateAddresses = !allowsPrivateSources
        pipeline.loading.allowedHosts = try reader.value("allowed-hosts").map { list in
            list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        pipeline.keyPolicy = CacheKeyPolicy(ignoredQueryItems: RequestArguments.queryItems(try reader.value("ignore-query")))
        pipeline.redis = try RedisOption.configuration(try reader.arguments.value("--redis"), environment: environment)
        pipeline.log = RedisOption.log
        if let folder = try CacheDirectoryOption.value(&reader.arguments) {
            pipeline.diskCache.root = folder
        }
        if let sizeLimit = try CacheDirectoryOption.sizeLimit(try reader.value("cache-size-limit")) {
            pipeline.diskCache.sizeLimit = sizeLimit
        }

        let key = environment["IMGCACHE_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let salt = environment["IMGCACHE_SALT"].flatMap { $0.isEmpty ? nil : $0 }
        let signing: ServeURLConfiguration.Signing
        switch (key, salt) {
        case (let key?, let salt?):
            guard !allowsUnsigned else { throw UsageError("--allow-unsigned goes without IMGCACHE_KEY: a key means every URL is signed") }
            signing = .required(try URLSigningKey(
                key: try HexArgument.bytes(key, name: "IMGCACHE_KEY"), salt: try HexArgument.bytes(salt, name: "IMGCACHE_SALT")))
        case (nil, nil):
            guard allowsUnsigned else {
                throw UsageError("set IMGCACHE_KEY and IMGCACHE_SALT (hex) to verify signed URLs, or pass --allow-unsigned")
            }
            signing = .unsigned
        default:
            throw UsageError("IMGCACHE_KEY and IMGCACHE_SALT go together")
        }
        let fallback = try Self.fallback(&reader)
        // A file fallback is read by the loader; serve URLs still name only http and https
        // sources (`ServeSource`), and the loader follows redirects to http and https alone.
        if fallback?.image.url.isFileURL == true { pipeline.loading.allowsFileURLs = true }
        let presets = try ServePresets(lines: try presetLines(&reader), limits: pipeline.limits)
        let onlyPresets = try reader.flag("only-presets")
        if onlyPresets, presets.names.isEmpty { throw UsageError("--only-presets needs presets: give --preset or --presets-file") }
        var urls = ServeURLConfiguration(
            signing: signing, limits: pipeline.limits, keyPolicy: pipeline.keyPolicy, presets: presets, onlyPresets: onlyPresets)
        urls.encoderControls.progressiveJPEG = try reader.flag("jpeg-progressive")
        if let chroma = try reader.value("chroma") {
            guard let subsampling = ChromaSubsampling(rawValue: chroma) else {
                throw UsageError("--chroma expects 420 or 444, got '\(chroma)'")
            }
            urls.encoderControls.chroma = subsampling
        }
        urls.quantizationColors = try reader.number("png-quantization-colors", in: PNGEncoder.paletteColorRange)
            ?? urls.quantizationColors
        if try reader.flag("png-quantize") { urls.encoderControls.paletteColors = urls.quantizationColors }
        return ServeOptions(
            pipeline: pipeline, server: ImageServer.Configuration(
                urls: urls, http: http, ttl: ttl, accessLogPath: accessLog, autoFormats: autoFormats, fallback: fallback),
            drainSeconds: drainSeconds, isSigned: key != nil)
    }

    /// `--fallback-image`, `--fallback-status` (0 or 200 to 599) and `--fallback-ttl`; the last
    /// two go only with the first.
    private static func fallback(_ reader: inout Reader) throws -> FallbackImage? {
        let image = try reader.value("fallback-image").map(FallbackImageOption.image)
        let status = try reader.number("fallback-status", in: 0...599)
        let ttl = try reader.number("fallback-ttl", in: 0...315_360_000)
        guard let image else {
            if status != nil || ttl != nil { throw UsageError("--fallback-status and --fallback-ttl go with --fallback-image") }
            return nil
        }
        var fallback = FallbackImage(image: image)
        if let status {
            guard status == 0 || status >= 200 else {
                throw UsageError("--fallback-status expects 0 (the failure's own status) or 200 to 599, got \(status)")
            }
            fallback.status = status
        }
        if let ttl { fallback.ttl = ttl }
        return fallback
    }

    /// Longest presets file read: 1 MiB.
    static let maxPresetsFileBytes = 1 << 20

    /// The preset definitions: the lines of `--presets-file`, then each `--preset` (or, without
    /// one, `IMGCACHE_PRESETS`, comma-separated as imgproxy's `IMGPROXY_PRESETS`).
    private static func presetLines(_ reader: inout Reader) throws -> [String] {
        var lines: [String] = []
        if let path = try reader.value("presets-file") {
            let data: Data
            do {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                data = try handle.read(upToCount: maxPresetsFileBytes + 1) ?? Data()
            } catch {
                throw UsageError("--presets-file: cannot read '\(path)': \(error.localizedDescription)")
            }
            guard data.count <= maxPresetsFileBytes else { throw UsageError("--presets-file: '\(path)' is over 1 MiB") }
            guard let text = String(data: data, encoding: .utf8) else { throw UsageError("--presets-file: '\(path)' is not UTF-8") }
            lines += text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        }
        let given = try reader.arguments.values("--preset")
        if !given.isEmpty { return lines + given }
        let variable = reader.environment[Reader.variable("presets")] ?? ""
        return lines + variable.split(separator: ",").map(String.init)
    }

    /// The formats `--auto-format` can name.
    static let autoFormatChoices: [ImageFormat] = [.avif, .webp]

    /// `--auto-format`'s comma-separated formats, most preferred first: avif and webp.
    private static func autoFormats(_ list: String) throws -> [ImageFormat] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let formats = names.compactMap { name in autoFormatChoices.first { $0.rawValue == name } }
        guard formats.count == names.count, Set(formats).count == formats.count else {
            throw UsageError("--auto-format expects avif, webp or both, comma-separated, most preferred first; got '\(list)'")
        }
        return formats
    }

    /// Options first, then their environment variables.
    private struct Reader {
        var arguments: ArgumentList
        let environment: [String: String]

        static func variable(_ name: String) -> String {
            "IMGCACHE_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        }

        mutating func value(_ name: String) throws -> String? {
            try arguments.value("--" + name) ?? environment[Self.variable(name)].flatMap { $0.isEmpty ? nil : $0 }
        }

        mutating func flag(_ name: String) throws -> Bool {
            if arguments.flag("--" + name) { return true }
            guard let text = environment[Self.variable(name)], !text.isEmpty else { return false }
            switch text.lowercased() {
            case "1", "true", "yes": return true
            case "0", "false", "no": return false
            default: throw UsageError("\(Self.variable(name)) expects 1 or 0, got '\(text)'")
            }
        }

        mutating func number(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text = try value(name) else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw UsageError("--\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return number
        }

        mutating func seconds(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
            guard let text = try value(name) else { return nil }
            guard let seconds = Double(text), seconds.isFinite, range.contains(seconds) else {
                throw UsageError("--\(name) expects seconds from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return seconds
        }
    }
}
