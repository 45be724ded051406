#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ImgCache

/// `imgcache decode FILE --size WxH [--mode fit|fill|crop] [--max-frames N] [--budget 15MB] [-o OUT]`
enum DecodeCommand: Command {
    static let name = "decode"
    static let summary = "decode a local image to a target pixel size and write it out"
    static let help = """
        Usage: imgcache decode FILE --size WxH [options]

        Decodes FILE (JPEG, PNG or GIF, told apart by its bytes), downsampling while decoding to
        the target size, and writes the result. Prints the output path and what it holds.

        Options:
          --size WxH          target size in pixels (required)
          --mode MODE         fit (default): inside WxH; fill: covers WxH; crop: exactly WxH, centred
          --upscale           allow scaling a smaller source up (default: never upscale)
          --max-frames N      most frames kept from an animation (default 50)
          --budget BYTES      memory the kept frames may take, e.g. 15MB (default 15MB; 1 MB = 2^20 B);
                              frames kept = min(max frames, budget / (width x height x 4)), at least 1
          --quality Q         JPEG quality 1-100 (default 85)
          -o, --output OUT    output file; its extension picks the format (.png, .jpg, .gif).
                              Default: <name>.<W>x<H>.<ext> in the current folder, GIF for GIF input
                              (all kept frames), PNG otherwise (the first frame).
          --accept-truncated  decode what a truncated file holds instead of failing
        """

    static func run(_ arguments: inout ArgumentList) throws {
        var options = try decodingOptions(&arguments)
        let quality = try arguments.value("--quality", expected: "a number from 1 to 100") { Int($0) }
            ?? JPEGEncoder.defaultQuality
        let outputPath = try arguments.value("-o", "--output")
        let input = try arguments.positionals(1, usage: "imgcache decode FILE --size WxH")[0]
        let source = ImageSource.file(path: input)

        let requestedFormat = try outputPath.map(formatForOutput)
        let outputFormat = try requestedFormat ?? (source.sniffFormat() == .gif ? .gif : .png)
        if outputFormat != .gif { options.maxFrames = 1 }
        let writer = OutputWriter(format: outputFormat, jpegQuality: quality)
        let info = try ImageDecoder.decode(source, options: options) { frame, info in
            try writer.add(frame, info: info)
        }
        let result = try writer.finish()
        let path = outputPath ?? defaultOutputPath(input: input, size: result.size, format: outputFormat)
        try write(result.data, to: path)
        let frames = result.frameCount == 1 ? "1 frame" : "\(result.frameCount) frames"
        print("\(path): \(result.size) \(outputFormat.rawValue.uppercased()), \(frames), \(result.data.count) bytes"
            + " (source \(info.format.rawValue.uppercased()) \(info.sourceSize)\(info.isTruncated ? ", truncated" : ""))")
    }

    /// Reads the options every decoding verb shares.
    static func decodingOptions(_ arguments: inout ArgumentList) throws -> DecodingOptions {
        var options = DecodingOptions()
        guard let size = try arguments.value("--size", expected: "WxH in pixels, e.g. 510x510", parse: PixelSize.init(parsing:))
        else { throw UsageError("--size WxH is required") }
        options.targetSize = size
        options.contentMode = try arguments.value("--mode", expected: "fit, fill or crop") { ContentMode(rawValue: $0) }
            ?? options.contentMode
        options.maxFrames = try arguments.value("--max-frames", expected: "a whole number of at least 1") {
            Int($0).flatMap { $0 >= 1 ? $0 : nil }
        } ?? options.maxFrames
        options.frameBudgetBytes = try arguments.value("--budget", expected: "a byte count such as 15MB", parse: parseByteCount)
            ?? options.frameBudgetBytes
        options.allowsUpscaling = arguments.flag("--upscale")
        options.acceptsTruncatedData = arguments.flag("--accept-truncated")
        return options
    }

    private static func formatForOutput(_ path: String) throws -> ImageFormat {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        case "gif": return .gif
        default: throw UsageError("cannot tell the output format of '\(path)'; use .png, .jpg or .gif")
        }
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
