import Foundation
import ImgCache

/// `imgcache-bench --webp-sizes`: how much smaller WebP is than JPEG and GIF at the same quality
/// on the benchmark corpus. Each input is decoded once to its widget-sized target (the frames the
/// pipeline keeps by default: at most 50, within 15 MiB), encoded as the baseline imgcache writes
/// today (JPEG at quality 85; PNG for the translucent photo; GIF for animations and for the
/// palette PNG), then as the smallest WebP whose SSIM against the decoded pixels reaches the
/// baseline's: lossy at the lowest quality that does (found by bisection over 1...100, SSIM
/// averaged over the frames), or lossless (SSIM 1) when that is smaller or no quality does. Every
/// output is read back with imgcache's decoders, with the frame count checked. Prints a markdown
/// table.
enum WebPSizeReport {
    struct Input {
        let file: String
        let target: PixelSize
        let baselines: [ImageFormat]
    }

    static let inputs = [
        Input(file: "photo-6000x4000.jpg", target: PixelSize(width: 1014, height: 474), baselines: [.jpeg]),
        Input(file: "photo-4000x3000.jpg", target: PixelSize(width: 510, height: 510), baselines: [.jpeg]),
        Input(file: "rgba-4000x3000.png", target: PixelSize(width: 1014, height: 474), baselines: [.png]),
        Input(file: "palette-1000x1000.png", target: PixelSize(width: 510, height: 510), baselines: [.jpeg, .gif]),
        Input(file: "anim-500x500x120.gif", target: PixelSize(width: 510, height: 510), baselines: [.gif]),
        Input(file: "anim-800x600x300.gif", target: PixelSize(width: 1014, height: 474), baselines: [.gif]),
    ]

    /// Prints the table; false when an input is missing.
    static func run(corpus: String) throws -> Bool {
        print("corpus: \(corpus); WebP at the lowest quality whose SSIM reaches the baseline's\n")
        print("| input | target, frames | baseline | bytes | SSIM | WebP | WebP bytes | WebP SSIM | WebP / baseline |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|")
        var complete = true
        for input in inputs {
            guard let path = SizeMeasurer.corpusFile(input.file, in: corpus, columns: 9) else {
                complete = false
                continue
            }
            let image = try ImageDecoder.decode(
                .file(path: path), options: DecodingOptions(targetSize: input.target, maxFrames: input.baselines == [.gif] ? 50 : 1))
            var measurer = SizeMeasurer(image: image)
            let lossless = try measurer.bytes(WebPEncoder.encode(image, compression: .lossless), exact: true)
            for baseline in input.baselines {
                let first = image.frames[0].bitmap
                let (data, name): (Data, String) = switch baseline {
                case .gif: (try GIFEncoder.encode(image), "GIF")
                case .png: (try PNGEncoder.encode(first), "PNG")
                default: (try JPEGEncoder.encode(first, quality: JPEGEncoder.defaultQuality), "JPEG q85")
                }
                let target = try measurer.ssim(of: data)
                var webp = (kind: "lossless", bytes: lossless, ssim: 1.0)
                let lowest = try measurer.lowestQuality("webp", reaching: target) { try WebPEncoder.encode(image, compression: .lossy(quality: $0)) }
                if let lossy = lowest, lossy.bytes < lossless {
                    webp = ("q\(lossy.quality)", lossy.bytes, lossy.ssim)
                }
                print("| \(input.file) | \(image.size), \(image.frames.count) | \(name) | \(data.count) | "
                      + String(format: "%.4f", target) + " | \(webp.kind) | \(webp.bytes) | " + String(format: "%.4f", webp.ssim) + " | "
                      + String(format: "%.2f", Double(webp.bytes) / Double(data.count)) + " |")
            }
        }
        return complete
    }
}
