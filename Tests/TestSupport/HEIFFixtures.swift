import Foundation
import ImgCache

/// Small HEIC and AVIF files made at test time from a bitmap, with Debian's encoders: `heif-enc`
/// (libheif-examples, x265) and `avifenc` (libavif-bin). Nothing binary is kept in the repository.
public enum HEIFFixtures {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// True when both encoders are installed (`make setup`); tests skip otherwise.
    public static var toolsInstalled: Bool {
        ["heif-enc", "avifenc"].allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)") }
    }

    /// An opaque photo-like picture: smooth gradients and a hard-edged block.
    public static func picture(width: Int, height: Int) throws -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                let block = x > width / 3 && x < width / 2 && y > height / 4 && y < height / 2
                pixels[index] = block ? 230 : UInt8(255 * x / max(1, width - 1))
                pixels[index + 1] = block ? 40 : UInt8(255 * y / max(1, height - 1))
                pixels[index + 2] = block ? 60 : UInt8(128 + (x + y) % 64)
            }
        }
        return try Bitmap(size: PixelSize(width: width, height: height), pixels: pixels)
    }

    /// A fresh temporary folder for fixtures.
    public static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-heif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A HEIC of `bitmap` written by heif-enc with `options` (["-q", "90"], ["-t", "64"] for a
    /// thumbnail...), named `name` in `folder`; its path.
    public static func heic(_ bitmap: Bitmap, _ name: String, in folder: URL, options: [String] = ["-q", "95"]) throws -> String {
        let png = try write(bitmap, name + ".png", in: folder)
        try run("heif-enc", options + [png, "-o", name], in: folder)
        return folder.appendingPathComponent(name).path
    }

    /// True when python3 can import pillow_heif (`make setup`), which writes phone-like HEICs.
    public static var pillowHEIFInstalled: Bool {
        (try? ProductRunner.runTool("python3", ["-c", "import pillow_heif"]).status) == 0
    }

    /// A HEIC like a phone's written by Tests/Scripts/make_heic.py: a `width` x `height` picture
    /// in a grid of `tile` x `tile` tiles, shown with the EXIF `orientation` (written as the
    /// grid's irot/imir) when given, named `name` in `folder`; its path.
    public static func phoneHEIC(
        width: Int, height: Int, tile: Int, orientation: Int? = nil, _ name: String, in folder: URL
    ) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/make_heic.py")
        let path = folder.appendingPathComponent(name).path
        try run("python3", [script.path, "\(width)", "\(height)", "\(tile)", path] + (orientation.map { ["\($0)"] } ?? []), in: folder)
        return path
    }

    /// An AVIF of `frames` (one: a still; more: an `avis` sequence at `fps`) written by avifenc
    /// with `options` (["--lossless"], ["--cicp", "12/13/6"]...), named `name` in `folder`; its path.
    public static func avif(
        _ frames: [Bitmap], _ name: String, in folder: URL, options: [String] = ["--lossless"], fps: Int = 25
    ) throws -> String {
        let pngs = try frames.enumerated().map { try write($1, "\(name).\($0).png", in: folder) }
        let timing = frames.count > 1 ? ["--fps", "\(fps)"] : []
        try run("avifenc", ["-j", "1"] + options + timing + pngs + [name], in: folder)
        return folder.appendingPathComponent(name).path
    }

    /// `bytes` with the width and height of every `ispe` box set to `width` x `height`: a header
    /// that promises more pixels than the file holds.
    public static func withSpatialExtents(_ bytes: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var result = bytes
        let tag = Array("ispe".utf8)
        var index = 0
        while index + 16 <= result.count {
            if Array(result[index..<index + 4]) == tag {
                // 'ispe', version and flags (4 bytes), then width and height, big-endian.
                for (offset, value) in [(8, width), (12, height)] {
                    for byte in 0..<4 { result[index + offset + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(byte))) }
                }
            }
            index += 1
        }
        return result
    }

    private static func write(_ bitmap: Bitmap, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try PNGEncoder.encode(bitmap).write(to: url)
        return url.path
    }

    private static func run(_ tool: String, _ arguments: [String], in folder: URL) throws {
        let result = try ProductRunner.runTool(tool, arguments, in: folder)
        guard result.status == 0, !result.killedBySignal else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(result.errors)\(result.output)")
        }
    }
}
