import Foundation
import ImgCache

/// `imgcache info FILE [--json] [--facts] [target and processing options]`
enum InfoCommand: Command {
    static let name = "info"
    static let summary = "show an image's format, pixel size, frames, colour profile and, with --facts, its colours and placeholders"
    static let usage = "imgcache info FILE [--json] [--facts [--size WxH ...] [--blurhash XxY]]"
    static let about = """
        Reads the headers of FILE without decoding pixels and prints its format (from the bytes),
        pixel size as displayed (after EXIF orientation), the frames the file holds (every GIF frame
        counted without being decoded), the GIF loop count (0 = forever, "none" = play once), the
        EXIF orientation, the colour profile (its description, "none", or why a malformed one is
        ignored) and the file size.

        With --facts (implied by a target or a processing option), also decodes the image as
        `decode` would prepare it with the same options (the whole image when no target is
        given) and prints the facts of its first frame: the average colour, up to 5 dominant
        colours with their shares, a BlurHash and a ThumbHash (base64), and for the whole image
        and its top and bottom thirds whether white or black text reads better, with the WCAG
        contrast of each. An image over 100x100 is shrunk by area to fit 100x100 for all but the
        average.
        """
    static let options: [OptionHelp] = [
        OptionHelp("--json", "print one JSON object instead of lines"),
        OptionHelp("--facts", "decode the image and add its facts"),
        OptionHelp("--blurhash", "XxY", .text, "BlurHash components across and down, 1-9 each (default 4x3)"),
    ] + TargetArguments.options + ProcessingArguments.options

    static func run(_ arguments: inout ArgumentList) throws {
        let json = arguments.flag("--json")
        var wantsFacts = arguments.flag("--facts")
        let components = try arguments.value("--blurhash", expected: "XxY components from 1 to 9 each, such as 4x3") { text in
            Self.components(text)
        }
        let target = try TargetArguments.parse(&arguments, cacheDirectory: false)
        let processing = try ProcessingArguments.parse(&arguments)
        let path = try arguments.positionals(1, usage: "imgcache info FILE")[0]
        wantsFacts = wantsFacts || components != nil || !target.targets.isEmpty || processing.blur != nil || processing.tint != nil
        let inspection = try ImageDecoder.inspect(.file(path: path))
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let facts = try wantsFacts
            ? Self.facts(path, target: target, processing: processing, components: components ?? BlurHash.defaultComponents) : nil
        if json {
            var fields = inspection.jsonFields
            fields["path"] = path
            fields["bytes"] = bytes
            fields["loopCount"] = inspection.loopCount ?? NSNull()
            if let facts {
                fields.merge(try facts.facts.jsonFields()) { _, new in new }
                fields["prepared"] = ["width": facts.size.width, "height": facts.size.height]
            }
            let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("""
                \(path)
                  format:      \(inspection.format.rawValue.uppercased())
                  size:        \(inspection.size) pixels
                  frames:      \(inspection.frameCount)
                  loop count:  \(inspection.loopCount.map { $0 == 0 ? "0 (forever)" : "\($0)" } ?? "none")
                  orientation: \(inspection.orientation.rawValue)
                  profile:     \(inspection.colorProfile.summary)
                  bytes:       \(bytes)
                """)
            if let facts { print(Self.lines(facts.facts, size: facts.size)) }
        }
    }

    /// The facts of `path` prepared as `decode` prepares it with the same options, and its size.
    private static func facts(
        _ path: String, target: TargetArguments, processing: ProcessingArguments, components: (x: Int, y: Int)
    ) throws -> (facts: ImageFacts, size: PixelSize) {
        var options = try target.decodingOptions(verb: "info")
        options.maxFrames = 1
        let request = ImageRequest(
            url: URL(fileURLWithPath: path), contentMode: target.mode, gravity: target.gravity, background: target.background,
            processors: try processing.processors())
        let scale = try target.singleTarget(verb: "info")?.resolve().scale ?? 1
        let image = try DecodeCommand.prepared(
            .file(path: path), options: options, processors: request.frameProcessors(targetPixels: options.targetSize), scale: scale)
        guard let first = image.frames.first else {
            throw ImgCacheError.corruptImage(format: image.info.format, detail: "no frame was decoded")
        }
        return (try ImageFacts(of: first.bitmap, blurHashComponents: components), image.size)
    }

    /// The facts as the text output's lines.
    private static func lines(_ facts: ImageFacts, size: PixelSize) -> String {
        func hex(_ color: RGBAColor) -> String { "#" + color.description.prefix(6) }
        func percent(_ share: Double) -> String { String(format: "%.1f%%", share * 100) }
        func region(_ region: Legibility.Region) -> String {
            String(format: "%@ (white %.2f:1, black %.2f:1)", region.text.rawValue, region.whiteContrast, region.blackContrast)
        }
        let dominant = facts.dominantColors.map { "\(hex($0.color)) \(percent($0.share))" }.joined(separator: ", ")
        return """
              prepared:    \(size) pixels
              average:     \(hex(facts.average)), alpha \(facts.average.alpha)
              dominant:    \(dominant.isEmpty ? "none (transparent)" : dominant)
              blurhash:    \(facts.blurHash)
              thumbhash:   \(Data(facts.thumbHash).base64EncodedString())
              text whole:  \(region(facts.legibility.whole))
              text top:    \(region(facts.legibility.top))
              text bottom: \(region(facts.legibility.bottom))
            """
    }

    /// "XxY" with both in 1...9.
    private static func components(_ text: String) -> (x: Int, y: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]),
              BlurHash.componentRange.contains(x), BlurHash.componentRange.contains(y)
        else { return nil }
        return (x, y)
    }
}
