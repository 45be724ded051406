import Foundation
import ImgCache

/// `imgcache-bench --avif-sizes`: AVIF's size against JPEG q85 and lossy WebP at the same SSIM on
/// the benchmark corpus's stills, and the time each takes to encode. Each input is decoded once to
/// its widget-sized target; the baseline is JPEG at quality 85 (lossy WebP at 85 for the
/// translucent photo, which JPEG cannot hold), and WebP and AVIF are each encoded at the lowest
/// quality whose SSIM against the decoded pixels reaches the baseline's (bisection over 1...100).
/// Encode times are the median of 5 runs at that quality, one thread each, as the pipeline runs
/// them. Every output is read back with imgcache's decoders. Prints a markdown table.
enum AVIFSizeReport {
    struct Input {
        let file: String
        let target: PixelSize
    }

    static let inputs = [
        Input(file: "photo-6000x4000.jpg", target: PixelSize(width: 1014, height: 474)),
        Input(file: "photo-4000x3000.jpg", target: PixelSize(width: 510, height: 510)),
        Input(file: "rgba-4000x3000.png", target: PixelSize(width: 1014, height: 474)),
        Input(file: "palette-1000x1000.png", target: PixelSize(width: 510, height: 510)),
    ]

    /// Prints the table; false when an input is missing.
    static func run(corpus: String) throws -> Bool {
        print("corpus: \(corpus); WebP and AVIF (libaom speed \(AVIFEncoder.speed)) at the lowest quality whose SSIM reaches the baseline's\n")
        print("| input | target | baseline | bytes | SSIM | ms | WebP | bytes | ms | AVIF | bytes | ms | AVIF / baseline | AVIF / WebP |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        var complete = true
        for input in inputs {
            guard let path = SizeMeasurer.corpusFile(input.file, in: corpus, columns: 14) else {
                complete = false
                continue
            }
            let image = try ImageDecoder.decode(.file(path: path), options: DecodingOptions(targetSize: input.target, maxFrames: 1))
            let bitmap = image.frames[0].bitmap
            var measurer = SizeMeasurer(image: image)
            let webp = { (quality: Int) in try WebPEncoder.encode(bitmap, compression: .lossy(quality: quality)) }
            let avif = { (quality: Int) in try AVIFEncoder.encode(bitmap, quality: quality) }
            let baseline: (name: String, encode: () throws -> Data) = bitmap.isOpaque
                ? ("JPEG q85", { try JPEGEncoder.encode(bitmap, quality: JPEGEncoder.defaultQuality) })
                : ("WebP q85", { try webp(JPEGEncoder.defaultQuality) })
            let data = try baseline.encode()
            let target = try measurer.ssim(of: data)
            guard let foundWebP = try measurer.lowestQuality("webp", reaching: target, webp),
                  let foundAVIF = try measurer.lowestQuality("avif", reaching: target, avif)
            else {
                print("| \(input.file) | \(image.size) | \(baseline.name) | \(data.count) | no quality reaches SSIM \(target) | | | | | | | | | |")
                continue
            }
            let times = try [baseline.encode, { try webp(foundWebP.quality) }, { try avif(foundAVIF.quality) }].map(medianMilliseconds)
            print("| \(input.file) | \(image.size) | \(baseline.name) | \(data.count) | " + String(format: "%.4f", target)
                  + " | \(format(times[0])) | q\(foundWebP.quality) | \(foundWebP.bytes) | \(format(times[1]))"
                  + " | q\(foundAVIF.quality) | \(foundAVIF.bytes) | \(format(times[2])) | "
                  + String(format: "%.2f", Double(foundAVIF.bytes) / Double(data.count)) + " | "
                  + String(format: "%.2f", Double(foundAVIF.bytes) / Double(foundWebP.bytes)) + " |")
        }
        return complete
    }

    /// The median wall time of 5 runs of `encode`, in milliseconds.
    private static func medianMilliseconds(_ encode: () throws -> Data) throws -> Double {
        var times: [Double] = []
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try encode()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[2]
    }

    private static func format(_ milliseconds: Double) -> String { String(format: "%.1f", milliseconds) }
}
