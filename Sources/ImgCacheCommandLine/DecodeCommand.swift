#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ImgCache

/// `imgcache decode FILE --size WxH | --device NAME --widget FAMILY [options] [-o OUT]`
enum DecodeCommand: Command {
    static let name = "decode"
    static let summary = "decode a local image to a target size and write it out (no cache)"
    static let usage = "imgcache decode FILE --size WxH [options]"
    static let about = """
        Decodes FILE (JPEG, PNG, GIF, WebP, HEIC or AVIF, told apart by its bytes), downsampling
        while decoding to the target size, and writes the result. Prints the output path and what
        it holds.
        A target is required: --size, or --device with --widget.
        """
    static let options: [OptionHelp] = TargetArguments.options + ProcessingArguments.options + [
        OptionHelp("--quality", "Q", .text, "JPEG, WebP or AVIF quality 1-100 (default 85; AVIF 63, imgproxy's)"),
        OptionHelp("--max-bytes", "N", .text, """
            the output's byte cap: JPEG, WebP and AVIF at the largest quality up
            to Q that fits (WebP lossy then), other formats as they are; what
            cannot fit fails (exit 14)
            """),
    ] + EncoderArguments.options + [
        OptionHelp(["-o", "--output"], "OUT", .file, """
            output file; its extension picks the format (.png, .jpg, .gif,
            .webp: every frame kept, lossy when opaque, else lossless; .avif:
            every frame kept, lossy, alpha kept; no .heic: x265 is GPL).
            Default: <name>.<W>x<H>.<ext> in the current folder, in GIF when
            several frames are kept, else JPEG (quality 85) when every pixel is
            opaque, else PNG.
            """),
        OptionHelp("--accept-truncated", "decode what a truncated file holds instead of failing"),
    ]

    static func run(_ arguments: inout ArgumentList) throws {
        let target = try TargetArguments.parse(&arguments, cacheDirectory: false)
        guard !target.targets.isEmpty else { throw UsageError("--size WxH (or --device with --widget) is required") }
        var options = try target.decodingOptions(verb: "decode")
        let processors = try ProcessingArguments.parse(&arguments).processors()
        let scale = try target.singleTarget(verb: "decode")?.resolve().scale ?? 1
        options.acceptsTruncatedData = arguments.flag("--accept-truncated")
        let quality = try arguments.value("--quality", expected: "a number from 1 to 100") { Int($0) }
        let maxBytes = try RequestArguments.maxBytes(&arguments)
        let controls = try EncoderArguments.parse(&arguments)
        let outputPath = try arguments.value("-o", "--output")
        let input = try arguments.positionals(1, usage: "imgcache decode FILE --size WxH")[0]
        let source = ImageSource.file(path: input)

        let format = try outputPath.map { try FetchCommand.outputFormat(forPath: $0, quality: quality).request } ?? .automatic
        switch format {
        case .png, .jpeg: if !options.picksPoster { options.maxFrames = 1 }
        case .automatic, .gif, .webp, .webpLossless, .avif: break
        }
        let writer = try OutputWriter(
            format: format, quality: quality, maxBytes: maxBytes, controls: controls, colorPolicy: options.colorPolicy)
        // What the pipeline runs for the same request: the blur and tint, then a padding and the background.
        let request = ImageRequest(
            url: URL(fileURLWithPath: input), contentMode: target.mode, gravity: target.gravity, background: target.background,
            processors: processors)
        let allProcessors = request.frameProcessors(targetPixels: options.targetSize)
        let info = try allProcessors.isEmpty
            ? ImageDecoder.decode(source, options: options) { frame, info in try writer.add(frame, info: info) }
            : processed(source, options: options, processors: allProcessors, scale: scale, into: writer)
        let result = try writer.finish()
        let path = outputPath ?? defaultOutputPath(input: input, size: result.size, format: result.format)
        try write(result.data, to: path)
        let frames = result.frameCount == 1 ? "1 frame" : "\(result.frameCount) frames"
        print("\(path): \(result.size) \(result.format.rawValue.uppercased()), \(frames), \(result.data.count) bytes"
            + " (source \(info.format.rawValue.uppercased()) \(info.sourceSize)\(info.isTruncated ? ", truncated" : "")"
            + (info.poster.map { ", poster frame \($0.index) of \($0.framesDecoded) decoded" } ?? "") + ")")
        if let timeline = options.timeline {
            print(TimelineReport(timeline, size: result.size, frames: result.frameCount).line)
        }
    }

    /// Decodes `source` whole, runs `processors` on its frames (at `scale` pixels per point) and
    /// hands the frames to `writer`; returns what the decode learned.
    private static func processed(
        _ source: ImageSource, options: DecodingOptions, processors: [any ImageProcessing], scale: Double, into writer: OutputWriter
    ) throws -> ImageInfo {
        let image = try prepared(source, options: options, processors: processors, scale: scale)
        for frame in image.frames { try writer.add(frame, info: image.info) }
        return image.info
    }

    /// `source` decoded whole with `options`, then run through `processors` at `scale` pixels per
    /// point: the image the pipeline would encode for the same request.
    static func prepared(
        _ source: ImageSource, options: DecodingOptions, processors: [any ImageProcessing], scale: Double
    ) throws -> DecodedImage {
        var image = try ImageDecoder.decode(source, options: options)
        let context = ImageProcessingContext(scale: scale, targetSize: options.targetSize)
        for processor in processors { image = try processor.process(image, context: context) }
        return image
    }

    private static func defaultOutputPath(input: String, size: PixelSize, format: ImageFormat) -> String {
        let stem = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        return "\(stem).\(size).\(format.fileExtension)"
    }

    /// Writes `data` beside `path` first, then renames it into place, so `path` is never partial.
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            throw ImgCacheError.io(path: path, detail: "cannot write: \(error.localizedDescription)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ImgCacheError.io(path: path, detail: "cannot write: \(reason)")
        }
    }
}
