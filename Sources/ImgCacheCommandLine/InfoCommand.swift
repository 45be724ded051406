import Foundation
import ImgCache

/// `imgcache info FILE [--json]`
enum InfoCommand: Command {
    static let name = "info"
    static let summary = "show an image's format, pixel size, frame count, loop count and colour profile"
    static let help = """
        Usage: imgcache info FILE [--json]

        Reads the headers of FILE without decoding pixels and prints its format (from the bytes),
        pixel size as displayed (after EXIF orientation), the frames the file holds (every GIF frame
        counted without being decoded), the GIF loop count (0 = forever, "none" = play once), the
        EXIF orientation, the colour profile (its description, "none", or why a malformed one is
        ignored) and the file size.

        Options:
          --json   print one JSON object instead of lines
        """

    static func run(_ arguments: inout ArgumentList) throws {
        let json = arguments.flag("--json")
        let path = try arguments.positionals(1, usage: "imgcache info FILE")[0]
        let inspection = try ImageDecoder.inspect(.file(path: path))
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if json {
            var fields: [String: Any] = [
                "path": path, "format": inspection.format.rawValue, "width": inspection.size.width,
                "height": inspection.size.height, "frames": inspection.frameCount,
                "orientation": inspection.orientation.rawValue, "bytes": bytes,
            ]
            fields["loopCount"] = inspection.loopCount ?? NSNull()
            switch inspection.colorProfile {
            case .none: fields["icc_profile"] = NSNull()
            case .profile(let profile): fields["icc_profile"] = profile.description
            case .malformed(let reason): fields["icc_profile"] = NSNull(); fields["icc_profile_malformed"] = reason
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
        }
    }
}
