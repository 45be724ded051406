import Foundation
import ImgCache

// Animations (the first 8 frames of long GIFs) and decode-then-encode runs, which do what
// `imgcache decode ... -o OUT` does minus reading arguments and writing the file.
extension Scenario {
    static let animations: [Scenario] = [
        frames("gif-500x500x120-first8-fit-510x510", "anim-500x500x120.gif", expected: 8),
        encoded("gif-500x500x120-first8-fit-510x510-encode-gif", "anim-500x500x120.gif", .gif),
        frames("gif-800x600x300-first8-fit-510x510", "anim-800x600x300.gif", expected: 8),
        encoded("gif-800x600x300-first8-fit-510x510-encode-gif", "anim-800x600x300.gif", .gif),
    ]

    static let encodes: [Scenario] = [
        encoded("jpeg-6000x4000-fit-1014x474-encode-jpeg", "photo-6000x4000.jpg", .jpeg, PixelSize(width: 1014, height: 474)),
        encoded("png-rgba-4000x3000-fit-1014x474-encode-png", "rgba-4000x3000.png", .png, PixelSize(width: 1014, height: 474)),
        // The work of one image of Benchmarks/throughput.sh's prefetch, without the network and the cache.
        encoded("jpeg-1200x800-crop-510x510-encode-jpeg", "prefetch-1200x800/img-0000.jpg", .jpeg, mode: .crop),
    ]

    /// Decoding the first frames of `input` to fit 510x510, holding every kept frame; the run fails
    /// unless exactly `expected` frames are kept.
    static func frames(_ name: String, _ input: String, expected: Int) -> Scenario {
        Scenario(name: name, input: input) { path in
            let options = DecodingOptions(targetSize: PixelSize(width: 510, height: 510), maxFrames: expected)
            let image = try ImageDecoder.decode(.file(path: path), options: options)
            guard image.frames.count == expected else {
                throw ImgCacheError.invalidArgument("kept \(image.frames.count) frames, expected \(expected)")
            }
        }
    }

    /// Decoding `input` to `size` (fit unless `mode` says otherwise) and encoding it as `format` in memory, as the CLI does: GIF
    /// frames stream into the encoder as they are decoded (8 at most); a still is encoded at the end
    /// with the encoders' defaults (JPEG quality 85, PNG zlib level 6).
    static func encoded(
        _ name: String, _ input: String, _ format: ImageFormat, _ size: PixelSize = PixelSize(width: 510, height: 510),
        mode: ContentMode = .fit
    ) -> Scenario {
        Scenario(name: name, input: input) { path in
            let options = DecodingOptions(targetSize: size, contentMode: mode, maxFrames: format == .gif ? 8 : 1)
            var gif: GIFEncoder?
            var still: Bitmap?
            _ = try ImageDecoder.decode(.file(path: path), options: options) { frame, info in
                guard format == .gif else { return still = frame.bitmap }
                if gif == nil { gif = try GIFEncoder(size: frame.bitmap.size, loopCount: info.loopCount) }
                try gif?.add(frame)
            }
            let bytes: Data
            switch (format, gif, still) {
            case (.gif, let gif?, _): bytes = try gif.finish()
            case (.jpeg, _, let still?): bytes = try JPEGEncoder.encode(still)
            case (.png, _, let still?): bytes = try PNGEncoder.encode(still)
            default: throw ImgCacheError.invalidArgument("nothing decoded from \(input)")
            }
            guard !bytes.isEmpty else { throw ImgCacheError.invalidArgument("empty \(format) output") }
        }
    }
}
