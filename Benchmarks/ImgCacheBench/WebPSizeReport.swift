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
            let path = corpus + "/" + input.file
            guard FileManager.default.fileExists(atPath: path) else {
                print("| \(input.file) | missing: run Benchmarks/make-corpus.py | | | | | | | |")
                complete = false
                continue
            }
            let image = try ImageDecoder.decode(
                .file(path: path), options: DecodingOptions(targetSize: input.target, maxFrames: input.baselines == [.gif] ? 50 : 1))
            var measurer = Measurer(image: image)
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
                if let lossy = try measurer.lowestWebPQuality(reaching: target), lossy.bytes < lossless {
                    webp = ("q\(lossy.quality)", lossy.bytes, lossy.ssim)
                }
                print("| \(input.file) | \(image.size), \(image.frames.count) | \(name) | \(data.count) | "
                      + String(format: "%.4f", target) + " | \(webp.kind) | \(webp.bytes) | " + String(format: "%.4f", webp.ssim) + " | "
                      + String(format: "%.2f", Double(webp.bytes) / Double(data.count)) + " |")
            }
        }
        return complete
    }

    /// SSIMs of encodings of one decoded image, WebP ones by quality kept for the search.
    struct Measurer {
        let image: DecodedImage
        private var webp: [Int: (bytes: Int, ssim: Double)] = [:]

        init(image: DecodedImage) { self.image = image }

        /// The mean SSIM of `data`'s frames, read back by imgcache, against the decoded frames.
        func ssim(of data: Data) throws -> Double {
            let decoded = try ImageDecoder.decode(.data(data), options: DecodingOptions(maxFrames: 10_000, frameBudgetBytes: 64 << 20))
            guard decoded.frames.count == image.frames.count else {
                throw ImgCacheError.invalidArgument("read back \(decoded.frames.count) frames of \(image.frames.count)")
            }
            let total = zip(decoded.frames, image.frames).reduce(0.0) { $0 + SSIM.of($1.0.bitmap, $1.1.bitmap) }
            return total / Double(image.frames.count)
        }

        /// `data`'s size once checked to read back (to SSIM 1 when `exact`).
        func bytes(_ data: Data, exact: Bool) throws -> Int {
            let ssim = try ssim(of: data)
            guard !exact || ssim > 0.99999 else { throw ImgCacheError.invalidArgument("lossless WebP read back at SSIM \(ssim)") }
            return data.count
        }

        mutating func webp(_ quality: Int) throws -> (bytes: Int, ssim: Double) {
            if let known = webp[quality] { return known }
            let data = try WebPEncoder.encode(image, compression: .lossy(quality: quality))
            let measured = (data.count, try ssim(of: data))
            webp[quality] = measured
            return measured
        }

        /// The lowest quality whose SSIM is at least `target`; nil when not even 100 reaches it.
        mutating func lowestWebPQuality(reaching target: Double) throws -> (quality: Int, bytes: Int, ssim: Double)? {
            guard try webp(100).ssim >= target else { return nil }
            var low = 1, high = 100
            while low < high {
                let middle = (low + high) / 2
                if try webp(middle).ssim >= target { high = middle } else { low = middle + 1 }
            }
            let found = try webp(low)
            return (low, found.bytes, found.ssim)
        }
    }
}
