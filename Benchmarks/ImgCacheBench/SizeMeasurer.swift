import Foundation
import ImgCache

/// Sizes and SSIMs of encodings of one decoded image, read back with imgcache's decoders; lossy
/// ones kept by format and quality for the searches over quality.
struct SizeMeasurer {
    let image: DecodedImage
    private var measured: [String: (bytes: Int, ssim: Double)] = [:]

    init(image: DecodedImage) { self.image = image }

    /// The path of `file` in `corpus`; nil, once a table row of `columns` columns says it is
    /// missing, when there is none.
    static func corpusFile(_ file: String, in corpus: String, columns: Int) -> String? {
        let path = corpus + "/" + file
        guard FileManager.default.fileExists(atPath: path) else {
            print("| \(file) | missing: run Benchmarks/make-corpus.py |" + String(repeating: " |", count: columns - 2))
            return nil
        }
        return path
    }

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
        guard !exact || ssim > 0.99999 else { throw ImgCacheError.invalidArgument("lossless output read back at SSIM \(ssim)") }
        return data.count
    }

    /// The size and SSIM of `format` (a name) at `quality`, made by `encode`.
    mutating func lossy(_ format: String, _ quality: Int, _ encode: (Int) throws -> Data) throws -> (bytes: Int, ssim: Double) {
        let key = "\(format)\(quality)"
        if let known = measured[key] { return known }
        let data = try encode(quality)
        let result = (data.count, try ssim(of: data))
        measured[key] = result
        return result
    }

    /// The lowest quality of `format` whose SSIM is at least `target`, found by bisection over
    /// 1...100; nil when not even 100 reaches it.
    mutating func lowestQuality(
        _ format: String, reaching target: Double, _ encode: (Int) throws -> Data
    ) throws -> (quality: Int, bytes: Int, ssim: Double)? {
        guard try lossy(format, 100, encode).ssim >= target else { return nil }
        var low = 1, high = 100
        while low < high {
            let middle = (low + high) / 2
            if try lossy(format, middle, encode).ssim >= target { high = middle } else { low = middle + 1 }
        }
        let found = try lossy(format, low, encode)
        return (low, found.bytes, found.ssim)
    }
}
