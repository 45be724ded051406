import Foundation
import ImgCache

/// The options `decode`, `fetch` and `prefetch` share: the target, how to fit it, which frames to
/// keep, the colour policy and, for the verbs that use it, the cache folder.
struct TargetArguments {
    static let options: [OptionHelp] = [
        OptionHelp("--device", "NAMES", .list(TargetArguments.deviceWords), """
            a device from 'imgcache devices', with --widget: the widget's pixel size;
            several, comma-separated, or 'all', 'iphones', 'ipads' (fetch, prefetch)
            """),
        OptionHelp("--widget", "FAMILIES", .list(Widget.names), """
            small, medium, large, extra-large (iPad) or accessory-circular,
            accessory-rectangular, accessory-inline, or an iOS 10 Today widget:
            today-compact, today-expanded; several, comma-separated (fetch,
            prefetch). A size no source publishes is estimated for one device
            (the iPhone Air's widgets), with a note on standard error; with
            several targets, unpublished sizes are skipped with a note
            """),
        OptionHelp("--text-size", "SIZE", .words(TodayTextSize.allCases.map(\.rawValue)), "today-compact: xs, s, m, l, xl, xxl or xxxl (default l, 110 pt high)"),
        OptionHelp("--entry", "WHERE", .words(TodayEntry.allCases.map(\.rawValue)), "today-expanded: today-view (default) or notification-center"),
        OptionHelp("--landscape", "today-expanded: the landscape height"),
        OptionHelp("--size", "WxH", .text, """
            the target in pixels (at most 65535 a side and 16,777,216 pixels, as
            4096x4096: exit 5 over that), or in points when --scale is given;
            Wx or xH gives one side, the other following the source (fit only)
            """),
        OptionHelp("--scale", "N", .text, """
            the screen scale of --size in points, above 0 and at most 16:
            pixels = round(points x scale)
            """),
        OptionHelp("--mode", "MODE", .words(ContentMode.allCases.map(\.rawValue)), """
            fit, fill, crop or pad; default crop with --widget (the widget's exact
            pixels), fit otherwise. pad fits inside the target and fills the rest
            with --background, so the output has exactly the target's pixels
            """),
        OptionHelp("--gravity", "WHERE", .words(CropGravity.named.map(\.name)), """
            which part a crop keeps, or where pad places the image: center
            (default), north, south, east, west, north-east, north-west,
            south-east, south-west, or (a crop only) smart: the part of most
            interest (edges, skin tones, saturation, as vips's attention crop)
            """),
        OptionHelp("--focus", "X,Y", .text, """
            a crop keeps the part around this point, in fractions of the source's
            width and height from its top left (0.3,0.2), as far as the source allows
            """),
        OptionHelp("--background", "COLOR", .text, """
            RRGGBB or RRGGBBAA hex: pad's fill, and what translucent pixels are
            composited over (default: none; pad leaves transparent pixels and JPEG
            output is flattened over white)
            """),
        OptionHelp("--upscale", "allow scaling a smaller source up (default: never)"),
        OptionHelp("--max-frames", "N", .text, "most frames kept from an animation, 1 to 10000 (default 50)"),
        OptionHelp("--budget", "BYTES", .text, """
            memory the kept frames may take, 0 to 64MB (default 15MB; 1 MB = 2^20 B);
            frames kept = min(max frames, budget / (width x height x 4)), at least 1
            """),
        OptionHelp("--poster", """
            keep one still, the frame that shows an animation best (WidgetKit does
            not animate): the highest luminance contrast among the first
            --max-frames, a later one only when over 2% better, decoding stopped
            3 frames after a non-blank best; printed as "poster frame I of N decoded"
            """),
        OptionHelp("--timeline-entries", "N", .text, """
            the image is one of N entries (1 to 1000) of a widget's timeline, which
            share --extension's memory: each entry's frames get (limit - 10MB
            reserved) / N bytes (the --budget when less); an image whose one frame
            is over that exits 15 (serve 413), unless --fit-budget
            """),
        OptionHelp("--extension", "WHICH", .words(ExtensionMemory.allCases.map(\.rawValue)), "widgetkit (30MB, default) or today (16MB): the memory of --timeline-entries"),
        OptionHelp("--fit-budget", """
            with --timeline-entries, make an image over its entry's budget as large
            as fits instead (the same aspect, whole pixels)
            """),
        OptionHelp("--color", "POLICY", .words(ColorPolicy.allCases.map(\.rawValue)), """
            the source's colour profile (ICC, or PNG sRGB/gAMA/cHRM): convert to
            sRGB (default), keep it (pixels unconverted, the profile embedded in
            JPEG and PNG output; GIF cannot carry one) or ignore it
            """),
    ]

    static let cacheOptions: [OptionHelp] = [
        OptionHelp("--cache-dir", "DIR", .directory, """
            the cache folder (default $IMGCACHE_DIR, else $XDG_CACHE_HOME/imgcache,
            else ~/.cache/imgcache): new, empty or an imgcache cache, else exit 6
            """),
        CacheDirectoryOption.sizeLimitHelp,
        OptionHelp("--allowed-hosts", "L", .text, """
            fetch http(s) URLs, and follow redirects, only to these hosts: names and
            *.domain patterns, comma-separated (default: any host; exit 12 otherwise).
            Names, not addresses: no defence against DNS rebinding
            """),
    ] + RedisOption.options

    /// `--device`'s words: every model name, and the groups 'all', 'iphones' and 'ipads'.
    static let deviceWords = ["all", "iphones", "ipads"] + DeviceCatalog.devices.flatMap(\.models)

    /// Every target asked for; empty when none was (the source size is kept).
    var targets: [ImageTarget] = []
    var mode: ContentMode = .fit
    var gravity = CropGravity.center
    /// `--background`: nil keeps alpha.
    var background: RGBAColor?
    var upscale = false
    var maxFrames: Int?
    var budget: Int?
    /// `--poster`: keep the frame that represents the animation best.
    var poster = false
    /// `--timeline-entries`, `--extension` and `--fit-budget`: nil without a timeline.
    var timeline: TimelineBudget?
    var colorPolicy = ColorPolicy.convert
    /// `--cache-dir`: nil for the default folder.
    var cacheDirectory: URL?
    /// `--cache-size-limit`: nil for the default limit.
    var cacheSizeLimit: Int?
    /// `--allowed-hosts`, for the verbs that fetch: nil allows any host.
    var allowedHosts: [String]?
    /// `--redis` or `$IMGCACHE_REDIS`, for the verbs that fetch: nil for no shared tier.
    var redis: RedisConfiguration?

    /// Reads the target options, and the cache folder's, `--allowed-hosts` and `--redis` when `cacheDirectory` is true.
    static func parse(_ arguments: inout ArgumentList, cacheDirectory: Bool) throws -> TargetArguments {
        var result = TargetArguments()
        let device = try arguments.value("--device")
        let widget = try arguments.value(
            "--widget", expected: "small, medium, large, extra-large, accessory-*, today-compact or today-expanded"
        ) { Self.widgets($0) }
        let today = try TodayOptions.parse(&arguments, widgets: widget ?? [])
        let size = try arguments.value("--size", expected: "WxH, Wx or xH, e.g. 510x510 or 300x", parse: Self.sides(_:))
        let scale = try arguments.value("--scale", expected: "a number above 0 and at most 16, such as 3") {
            Double($0).flatMap { ImageTarget.scales.contains($0) ? $0 : nil }
        }
        switch (device, widget, size) {
        case (let device?, let widget?, nil):
            guard scale == nil else { throw UsageError("--scale comes from the device with --device") }
            result.targets = try widgetTargets(devices: try Self.devices(device), widgets: widget, today: today)
        case (nil, nil, let sides?):
            result.targets = [try Self.target(sides, scale: scale)]
        case (nil, nil, nil):
            guard scale == nil else { throw UsageError("--scale needs --size") }
        case (_?, nil, _), (nil, _?, _):
            throw UsageError("--device and --widget go together")
        default:
            throw UsageError("give either --device with --widget, or --size")
        }
        let widgetTarget = widget != nil
        result.mode = try arguments.value("--mode", expected: "fit, fill, crop or pad") { ContentMode(rawValue: $0) }
            ?? (widgetTarget ? .crop : .fit)
        if let size, size.width == nil || size.height == nil, result.mode != .fit {
            throw UsageError("a size of one side (\(size.width.map { "\($0)x" } ?? "x\(size.height ?? 0)")) fits: it takes --mode fit")
        }
        result.gravity = try gravity(&arguments, mode: result.mode)
        result.background = try arguments.value("--background", expected: "RRGGBB or RRGGBBAA hex digits, such as ffffff") {
            RGBAColor(hex: $0)
        }
        result.upscale = arguments.flag("--upscale")
        result.maxFrames = try arguments.value("--max-frames", expected: "a whole number from 1 to 10000") {
            Int($0).flatMap { DecodingOptions.frameCounts.contains($0) ? $0 : nil }
        }
        result.budget = try arguments.value("--budget", expected: "a byte count from 0 to 64MB, such as 15MB") {
            parseByteCount($0).flatMap { DecodingOptions.frameBudgets.contains($0) ? $0 : nil }
        }
        result.poster = arguments.flag("--poster")
        result.timeline = try timeline(&arguments)
        result.colorPolicy = try arguments.value("--color", expected: "convert, keep or ignore") { ColorPolicy(rawValue: $0) }
            ?? .convert
        if cacheDirectory { try result.parseCacheOptions(&arguments) }
        return result
    }

    /// Reads `cacheOptions`: the cache folder and its size limit, `--allowed-hosts` and `--redis`.
    mutating func parseCacheOptions(_ arguments: inout ArgumentList) throws {
        cacheDirectory = try CacheDirectoryOption.value(&arguments)
        cacheSizeLimit = try CacheDirectoryOption.sizeLimit(try arguments.value("--cache-size-limit"))
        allowedHosts = try arguments.value("--allowed-hosts").map { list in
            list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        redis = try RedisOption.configuration(try arguments.value("--redis"))
    }

    /// The one target, or nil when none was given; several are refused.
    func singleTarget(verb: String) throws -> ImageTarget? {
        guard targets.count <= 1 else { throw UsageError("\(verb) takes one target; give one --device and one --widget") }
        return targets.first
    }

    /// Decoding options for the one target in pixels (no target: the source size).
    func decodingOptions(verb: String) throws -> DecodingOptions {
        var options = DecodingOptions(
            targetSize: try singleTarget(verb: verb)?.resolve().pixels, contentMode: mode, gravity: gravity,
            allowsUpscaling: upscale, colorPolicy: colorPolicy, picksPoster: poster, timeline: timeline)
        // A padded frame is the target: fitted to the timeline before anything, as the pipeline does.
        if mode == .pad, let timeline, timeline.fitsImage { options.targetSize = options.targetSize.map(timeline.fitted) }
        if let maxFrames { options.maxFrames = maxFrames }
        if let budget { options.frameBudgetBytes = budget }
        return options
    }

    /// The requests for `source` (a URL, or a local path read as a file URL), one per target.
    func requests(for source: String) throws -> [ImageRequest] {
        let url = try Self.url(for: source)
        return (targets.isEmpty ? [nil] : targets.map(Optional.some)).map { target in
            ImageRequest(
                url: url, target: target, contentMode: mode, gravity: gravity, allowsUpscaling: upscale,
                maxFrames: maxFrames, frameBudgetBytes: budget, colorPolicy: colorPolicy, background: background,
                picksPoster: poster, timeline: timeline)
        }
    }

    /// The timeline of `--timeline-entries` with `--extension` and `--fit-budget`, which need it.
    private static func timeline(_ arguments: inout ArgumentList) throws -> TimelineBudget? {
        let entries = try arguments.value("--timeline-entries", expected: "a whole number from 1 to 1000") {
            Int($0).flatMap { TimelineBudget.entryCounts.contains($0) ? $0 : nil }
        }
        let memory = try arguments.value("--extension", expected: "widgetkit or today") { ExtensionMemory(rawValue: $0) }
        let fits = arguments.flag("--fit-budget")
        guard let entries else {
            guard memory == nil, !fits else { throw UsageError("--extension and --fit-budget need --timeline-entries") }
            return nil
        }
        return TimelineBudget(memory: memory ?? .widgetKit, entries: entries, fitsImage: fits)
    }

    /// `--gravity` or `--focus` (not both), which only a crop or a padding takes.
    private static func gravity(_ arguments: inout ArgumentList, mode: ContentMode) throws -> CropGravity {
        let names = CropGravity.named.map(\.name).joined(separator: ", ")
        let named = try arguments.value("--gravity", expected: names) { CropGravity(name: $0) }
        let focus = try arguments.value("--focus", expected: "X,Y in fractions of the source, each 0 to 1, such as 0.3,0.2") {
            text -> CropGravity? in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ (0...1).contains($0) }) else { return nil }
            return .focus(x: parts[0], y: parts[1])
        }
        guard named == nil || focus == nil else { throw UsageError("give --gravity or --focus, not both") }
        guard let gravity = named ?? focus else { return .center }
        guard mode == .crop || mode == .pad else {
            throw UsageError("--gravity and --focus place a crop or a padding: they need --mode crop or pad (or --widget)")
        }
        guard gravity != .smart || mode == .crop else { throw UsageError("--gravity smart picks a crop's window: it needs --mode crop") }
        return gravity
    }

    /// `WxH`, `Wx` or `xH` (positive whole numbers), nil otherwise.
    private static func sides(_ text: String) -> (width: Int?, height: Int?)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, !(parts[0].isEmpty && parts[1].isEmpty) else { return nil }
        let sides = parts.map { $0.isEmpty ? nil : Int($0) }
        guard zip(parts, sides).allSatisfy({ $0.isEmpty || ($1 ?? 0) > 0 }) else { return nil }
        return (sides[0], sides[1])
    }

    /// The target of `--size` (and `--scale`): both sides as given, or one, the other as long as
    /// the output limit allows (`DecodingLimits.otherSide(forSide:)`), so that a fit to it follows
    /// the source's aspect ratio.
    private static func target(_ sides: (width: Int?, height: Int?), scale: Double?) throws -> ImageTarget {
        let limits = DecodingLimits()
        func other(_ side: Int) throws -> Double {
            let pixels = scale.map { PointSize(width: Double(side), height: 1).pixels(atScale: $0).width } ?? side
            guard let other = limits.otherSide(forSide: pixels) else {
                throw UsageError("--size: a side of \(pixels) pixels is over the output limit of \(limits.maxOutputPixels) pixels")
            }
            return Double(other) / (scale ?? 1)
        }
        let width = try sides.width.map(Double.init) ?? other(sides.height ?? 0)
        let height = try sides.height.map(Double.init) ?? other(sides.width ?? 0)
        guard let scale else { return .pixels(PixelSize(width: Int(width), height: Int(height))) }
        return .points(PointSize(width: width, height: height), scale: scale)
    }

    /// The widgets of a comma-separated list, nil when one is unknown.
    private static func widgets(_ list: String) -> [Widget]? {
        let widgets = list.split(separator: ",").map { Widget(name: $0.trimmingCharacters(in: .whitespaces)) }
        guard !widgets.isEmpty, widgets.allSatisfy({ $0 != nil }) else { return nil }
        return widgets.compactMap { $0 }
    }

    /// The devices of a comma-separated list of names, or of 'all', 'iphones' or 'ipads'.
    private static func devices(_ list: String) throws -> [DeviceModel] {
        switch list.lowercased() {
        case "all": return DeviceCatalog.devices
        case "iphones": return DeviceCatalog.devices.filter { $0.kind == .iPhone }
        case "ipads": return DeviceCatalog.devices.filter { $0.kind == .iPad }
        default:
            return try list.split(separator: ",").map { try DeviceCatalog.device(named: $0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// A target for every device and widget. Alone, a target must resolve, and an estimated size
    /// is named on standard error; in a list, the sizes a device lacks or that no source publishes
    /// are skipped and named on standard error.
    private static func widgetTargets(devices: [DeviceModel], widgets: [Widget], today: TodayOptions) throws -> [ImageTarget] {
        let all = devices.flatMap { device in widgets.map { $0.target(device: device, today: today) } }
        guard all.count > 1 else {
            if let target = all.first, case let resolved = try target.resolve(), let estimate = resolved.estimate {
                let error = estimate.expectedErrorPixels.map { ", expected error up to \($0) px" } ?? ""
                CommandLineTool.printError("imgcache: note: \(target.label) \(resolved.pixels) px is estimated\(error): \(estimate.basis)")
            }
            return all
        }
        var known: [ImageTarget] = [], skipped: [String] = []
        for target in all {
            if let resolved = try? target.resolve(), !resolved.isEstimated { known.append(target) } else { skipped.append(target.label) }
        }
        if !skipped.isEmpty {
            CommandLineTool.printError("imgcache: no published size, skipped: \(skipped.joined(separator: ", ")) (one device and widget alone gives an estimate where there is one)")
        }
        guard !known.isEmpty else { throw UsageError("no device in the list has a published size for these widgets") }
        return known
    }

    /// A pipeline on the chosen cache folder whose loader also reads local files, with the user
    /// agent and key policy of `options` (default: none given).
    /// The memory cache is off: a command prepares each image once, and keeping decoded frames
    /// for a later call that never comes would only grow a long prefetch.
    func pipeline(applying options: RequestArguments = RequestArguments()) throws -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(memoryCacheLimit: 0)
        configuration.loading.allowsFileURLs = true
        configuration.loading.userAgent = "imgcache/\(CommandLineTool.version)"
        configuration.loading.allowedHosts = allowedHosts
        configuration.redis = redis
        configuration.log = RedisOption.log
        if let cacheDirectory { configuration.diskCache.root = cacheDirectory }
        if let cacheSizeLimit { configuration.diskCache.sizeLimit = cacheSizeLimit }
        return try ImagePipeline(configuration: options.applied(to: configuration))
    }

    /// `source` as a URL: as given when it has a scheme, else a path made absolute.
    static func url(for source: String) throws -> URL {
        if source.contains("://") {
            guard let url = URL(string: source), url.scheme != nil, url.host != nil || url.isFileURL else {
                throw ImgCacheError.invalidURL(source)
            }
            return url
        }
        return URL(fileURLWithPath: source).standardizedFileURL
    }
}
