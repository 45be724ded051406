import Foundation
import ImgCache

/// One named benchmark: what it needs from the corpus and the work timed on each run.
struct Scenario: Sendable {
    let name: String
    /// Corpus file the scenario reads (relative to the corpus folder).
    let input: String
    /// The timed work, given the input's full path.
    let run: @Sendable (String) throws -> Void

    /// Decoding `input` to `size` in `mode`, keeping at most `maxFrames` frames.
    static func decode(_ name: String, _ input: String, _ size: PixelSize, mode: ContentMode = .fit, maxFrames: Int = 1)
        -> Scenario
    {
        Scenario(name: name, input: input) { path in
            let options = DecodingOptions(targetSize: size, contentMode: mode, maxFrames: maxFrames)
            let image = try ImageDecoder.decode(.file(path: path), options: options)
            guard image.frames.count <= maxFrames else { throw ImgCacheError.invalidArgument("kept too many frames") }
        }
    }

    /// Every scenario, in the order they run.
    static let all: [Scenario] = [
        decode("jpeg-6000x4000-fit-1014x474", "photo-6000x4000.jpg", PixelSize(width: 1014, height: 474)),
        decode("jpeg-6000x4000-crop-510x510", "photo-6000x4000.jpg", PixelSize(width: 510, height: 510), mode: .crop),
        decode("jpeg-4000x3000-fit-1014x474", "photo-4000x3000.jpg", PixelSize(width: 1014, height: 474)),
        decode("jpeg-4000x3000-fit-510x510", "photo-4000x3000.jpg", PixelSize(width: 510, height: 510)),
        decode("png-rgba-4000x3000-fit-1014x474", "rgba-4000x3000.png", PixelSize(width: 1014, height: 474)),
        decode("png-palette-1000x1000-fit-510x510", "palette-1000x1000.png", PixelSize(width: 510, height: 510)),
    ] + animations + encodes + cache + hashing + widgets + blurs + facts
}
