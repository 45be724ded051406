import Foundation
import ImgCache

/// `imgcache slice SCREENSHOT|URL (--widget FAMILY --position POS | --all) [options]`
enum SliceCommand: Command {
    static let name = "slice"
    static let summary = "cut the wallpaper behind a widget slot out of a home-screen screenshot"
    static let usage = "imgcache slice SCREENSHOT|URL (--widget FAMILY --position POS | --all) [options]"
    static let about = """
        Cuts out of a portrait home-screen screenshot (PNG or JPEG) exactly the pixels a widget at
        POS covers, at whole pixels with no resampling: the background a transparent widget shows.
        The layout follows from the screenshot's pixel size (see 'imgcache layout'). A URL (http,
        https or file) goes through the cache as with 'fetch': the screenshot is downloaded once
        and each slice is stored as a variant of it, so slicing it again downloads nothing.
        """
    static let options: [OptionHelp] = [
        OptionHelp("--widget", "FAMILY", .words(WidgetFamily.allCases.filter { !SlotPosition.positions(for: $0).isEmpty }.map(\.rawValue)), "small, medium or large"),
        OptionHelp("--position", "POS", .words(SlotPosition.allCases.map(\.rawValue)), """
            small: top-left, top-right, middle-left, middle-right, bottom-left,
            bottom-right; medium: top, middle, bottom; large: top, bottom (a large
            widget at bottom starts at the middle row)
            """),
        OptionHelp("--all", "every slot of the layout, from one decode (one download for a URL)"),
    ] + LayoutArguments.deviceOptions + LayoutArguments.options + [
        OptionHelp(["-o", "--output"], "OUT", .file, """
            the slice's file, PNG unless OUT ends in .jpg; with --all a folder,
            created if missing, that gets FAMILY-POSITION.png for every slot.
            Default for a SCREENSHOT file: FAMILY-POSITION.png in the current
            folder; for a URL: nothing is written, the cached slice's path is
            printed
            """),
        OptionHelp("--quality", "Q", .text, "JPEG quality 1-100 when OUT ends in .jpg (default 85)"),
    ] + EncoderArguments.options + [
        OptionHelp("--blur", "SIGMA", .text, """
            blur the slice: a Gaussian of SIGMA points (pixels = SIGMA x the
            screen's scale), above 0 and at most 100
            """),
        OptionHelp("--tint", "TINT", .words(ProcessingArguments.tintWords), """
            after any blur: light or dark (Widget-Blur's overlays), none
            (default), or a colour RRGGBB or RRGGBBAA laid over it
            """),
        OptionHelp("--json", """
            print a JSON object for the slice (an array with --all): its slot,
            "pixels" and "points", "path", "format", "bytes", the layout's
            screenshot, scale, source, "estimated" and "expected_error_px", and
            for a URL the "cache" outcome
            """),
    ] + TargetArguments.cacheOptions

    /// What was asked: the slots, where they go and in what format.
    private struct Job {
        let layoutArguments: LayoutArguments
        /// The one slot asked for; nil with `--all`.
        let slot: (family: WidgetFamily, position: SlotPosition)?
        let output: String?
        let format: ImageRequest.OutputFormat
        /// `--progressive`, `--chroma` and `--palette`.
        let controls: EncoderControls
        let json: Bool
        let processing: ProcessingArguments

        func slots(of layout: HomeScreenLayout) throws -> [WidgetSlot] {
            guard let slot else { return layout.slots }
            return [try layout.slot(slot.family, at: slot.position)]
        }

        /// Where `slot`'s slice is written: OUT, a file in the OUT folder (`--all`), or one in the
        /// current folder; nil for a URL's slice without OUT.
        func destination(of slot: WidgetSlot, isURL: Bool) throws -> String? {
            let fileName = "\(slot.name).png"
            guard let output else { return isURL ? nil : fileName }
            guard self.slot == nil else { return output }
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                throw ImgCacheError.io(path: output, detail: "cannot create the folder: \(error.localizedDescription)")
            }
            return URL(fileURLWithPath: output).appendingPathComponent(fileName).path
        }
    }

    static func run(_ arguments: inout ArgumentList) throws {
        let layoutArguments = try LayoutArguments.parse(&arguments)
        let family = try arguments.value("--widget", expected: "small, medium or large") { WidgetFamily(rawValue: $0) }
        let positions = SlotPosition.allCases.map(\.rawValue).joined(separator: ", ")
        let position = try arguments.value("--position", expected: "one of \(positions)") { SlotPosition(rawValue: $0) }
        let all = arguments.flag("--all")
        let json = arguments.flag("--json")
        let processing = try ProcessingArguments.parse(&arguments)
        let quality = try arguments.value("--quality", expected: "a number from 1 to 100") { Int($0) }
            ?? JPEGEncoder.defaultQuality
        let controls = try EncoderArguments.parse(&arguments)
        let output = try arguments.value("-o", "--output")
        var cache = TargetArguments()
        try cache.parseCacheOptions(&arguments)
        let source = try arguments.positionals(1, usage: "imgcache slice SCREENSHOT|URL (--widget FAMILY --position POS | --all)")[0]
        let slot: (WidgetFamily, SlotPosition)?
        switch (all, family, position) {
        case (true, nil, nil): slot = nil
        case (false, let family?, let position?): slot = (family, position)
        case (true, _, _): throw UsageError("--all takes every slot: give no --widget or --position with it")
        default: throw UsageError("give --widget with --position, or --all")
        }
        var format = ImageRequest.OutputFormat.png
        if let output, slot != nil {
            format = try FetchCommand.outputFormat(forPath: output, quality: quality).request
            guard format == .png || format == .jpeg(quality: quality) else {
                throw UsageError("a slice is PNG or JPEG: '\(output)' names another format")
            }
        }
        let job = Job(
            layoutArguments: layoutArguments, slot: slot, output: output, format: format, controls: controls, json: json,
            processing: processing)
        let reports = source.contains("://")
            ? try sliceThroughCache(try TargetArguments.url(for: source), job, cache: cache)
            : try sliceFile(source, job)
        if json {
            print(try FetchReport.json(all ? reports : reports[0]))
        }
    }

    /// Slices a local screenshot, one decode for every slot, and writes each slice.
    private static func sliceFile(_ path: String, _ job: Job) throws -> [[String: Any]] {
        let screenshot = ImageSource.file(path: path)
        let layout = try job.layoutArguments.layout(screenshot: ImageDecoder.inspect(screenshot).size)
        let slices = try WallpaperSlicer(screenshot: screenshot, layout: layout)
            .slices(job.slots(of: layout), processors: job.processing.processors(pixelsPerPoint: layout.scale))
        return try slices.map { slice in
            // The encoder reads only the frames (and an animation's loop count) of the image's info.
            let image = DecodedImage(
                info: ImageInfo(format: .png, sourceSize: slice.bitmap.size), frames: [ImageFrame(bitmap: slice.bitmap)])
            let (data, format) = try VariantEncoder(format: job.format, iccProfile: slice.iccProfile, controls: job.controls).encode(image)
            let path = try job.destination(of: slice.slot, isURL: false)!
            try DecodeCommand.write(data, to: path)
            return report(slice.slot, layout, path: path, format: format, bytes: data.count, job)
        }
    }

    /// Slices the screenshot at `url` through the cache: one download, one decode, each slice a
    /// stored variant of the screenshot.
    private static func sliceThroughCache(_ url: URL, _ job: Job, cache: TargetArguments) throws -> [[String: Any]] {
        let pipeline = try cache.pipeline()
        defer { shutDown(pipeline) }
        let screenshot = try runBlocking { try await pipeline.data(for: url) }
        let layout = try job.layoutArguments.layout(screenshot: ImageDecoder.inspect(.data(screenshot.data)).size)
        let slots = try job.slots(of: layout)
        let processors = try job.processing.processors(pixelsPerPoint: layout.scale)
        let requests = slots.map { slot in
            var request = WallpaperSlicer.request(for: slot, ofScreenshotAt: url, format: job.format, processors: processors)
            request.encoderControls = job.controls
            return request
        }
        // One slot keeps the bytes of a slice the server forbade storing; several share one download.
        let summaries = requests.count == 1
            ? [try runBlocking { try await pipeline.prepare(requests[0]) }]
            : try runBlocking { await pipeline.prefetch(requests) }.map { try $0.get() }
        return try zip(slots, summaries).map { slot, summary in
            var path = summary.fileURL?.path
            if let destination = try job.destination(of: slot, isURL: true) {
                let data = try summary.encodedData()
                guard !data.isEmpty else {
                    throw ImgCacheError.io(
                        path: destination, detail: "the server forbade storing the screenshot (no-store): slice one slot at a time")
                }
                try DecodeCommand.write(data, to: destination)
                path = destination
            }
            var fields = report(
                slot, layout, path: path ?? "(not stored: the server sent no-store, or over --cache-size-limit)",
                format: summary.format, bytes: summary.byteCount, job)
            fields["cache"] = summary.cacheOutcome.rawValue
            return fields
        }
    }

    /// Prints the slice's line (unless the output is JSON) and returns its JSON fields.
    private static func report(
        _ slot: WidgetSlot, _ layout: HomeScreenLayout, path: String, format: ImageFormat, bytes: Int, _ job: Job
    ) -> [String: Any] {
        if !job.json {
            print("\(path): \(slot.name) \(LayoutReport.text(slot.rect)) (\(format.rawValue.uppercased()), \(bytes) bytes)")
        }
        return LayoutReport.fields(layout).merging(LayoutReport.fields(slot, scale: layout.scale)) { $1 }
            .merging(["path": path, "format": format.rawValue, "bytes": bytes]) { $1 }
    }
}
