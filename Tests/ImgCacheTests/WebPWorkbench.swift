import Foundation
import TestSupport
import XCTest
@testable import ImgCache

/// A temporary folder where WebP test files are made at test time with Debian's webp tools
/// (cwebp, dwebp, img2webp, gif2webp) and Pillow, and where Pillow's reading of a WebP (libwebp's
/// own compositing) is written out as PNG frames for reference. Tests skip when a tool is missing.
struct WebPWorkbench {
    let folder: URL

    /// A fresh folder; skips the test unless the webp tools and Pillow are installed.
    init() throws {
        for tool in ["cwebp", "dwebp", "img2webp", "gif2webp"] where !FileManager.default.isExecutableFile(atPath: "/usr/bin/\(tool)") {
            throw XCTSkip("/usr/bin/\(tool) is missing (apt-get install webp, or make setup)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-webp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `tool` (found on the PATH) in the folder and returns what it printed on stdout.
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try ProductRunner.runTool(tool, arguments, in: folder)
        guard result.status == 0, !result.killedBySignal else {
            throw ToolFailure(description: "\(tool) \(arguments.prefix(6).joined(separator: " ")) failed: \(result.errors)")
        }
        return result.output
    }

    /// Writes `bitmap` as `name` (a PNG) and returns its path.
    func png(_ bitmap: Bitmap, _ name: String) throws -> String {
        try PNGEncoder.encode(bitmap).write(to: folder.appendingPathComponent(name))
        return path(name)
    }

    /// A WebP made by cwebp from `bitmap` with `options` (["-q", "80"], ["-lossless"]...).
    func cwebp(_ bitmap: Bitmap, _ name: String, _ options: [String]) throws -> String {
        let source = try png(bitmap, name + ".png")
        try run("cwebp", ["-quiet"] + options + [source, "-o", name])
        return path(name)
    }

    /// dwebp's full-size RGBA decode of `webp`, as a PNG, for our PNG decoder to resample.
    func dwebpPNG(_ webp: String) throws -> String {
        try run("dwebp", ["-quiet", webp, "-o", webp + ".dwebp.png"])
        return webp + ".dwebp.png"
    }

    /// Pillow's frames of `file` (libwebp's WebPAnimDecoder for a WebP) as RGBA PNGs, with each
    /// frame's duration in milliseconds and the loop count; at most `limit` frames.
    func pillowFrames(_ file: String, limit: Int = 10_000) throws -> (pngs: [String], durations: [Int], loop: Int?) {
        let script = """
            import json, sys
            from PIL import Image, ImageSequence
            im = Image.open(sys.argv[1])
            durations = []
            for index, frame in enumerate(ImageSequence.Iterator(im)):
                if index == int(sys.argv[2]): break
                frame.convert("RGBA").save(f"{sys.argv[1]}.pillow-{index:04}.png")
                durations.append(frame.info.get("duration", 0))
            print(json.dumps({"durations": durations, "loop": im.info.get("loop")}))
            """
        let printed = try run("python3", ["-c", script, file, "\(limit)"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any])
        let durations = try XCTUnwrap(object["durations"] as? [Int])
        let pngs = durations.indices.map { String(format: "%@.pillow-%04d.png", file, $0) }
        return (pngs, durations, object["loop"] as? Int)
    }

    /// PSNR in dB over premultiplied RGBA, where a pixel's colour counts as much as it shows.
    static func premultipliedPSNR(_ a: Bitmap, _ b: Bitmap) -> Double {
        func premultiplied(_ bitmap: Bitmap) -> [UInt8] {
            var pixels = bitmap.pixels
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                let alpha = Int(pixels[offset + 3])
                for channel in 0..<3 { pixels[offset + channel] = UInt8((Int(pixels[offset + channel]) * alpha + 127) / 255) }
            }
            return pixels
        }
        return PSNR.of(premultiplied(a), premultiplied(b))
    }

    /// The largest difference between two equally sized bitmaps over every channel, where two
    /// pixels with alpha 0 are equal whatever their colour.
    static func maxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        precondition(a.size == b.size, "\(a.size) vs \(b.size)")
        var largest = 0
        for offset in stride(from: 0, to: a.pixels.count, by: 4) where a.pixels[offset + 3] != 0 || b.pixels[offset + 3] != 0 {
            for channel in 0..<4 {
                largest = max(largest, abs(Int(a.pixels[offset + channel]) - Int(b.pixels[offset + channel])))
            }
        }
        return largest
    }
}
