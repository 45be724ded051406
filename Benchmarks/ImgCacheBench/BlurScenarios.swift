import Foundation
import ImgCache

// A blurred wallpaper slice: the medium widget of a 3x iPhone (1032x486 pixels, photo-like, opaque)
// blurred at sigma 10 points (30 pixels), alone and with the dark tint after it, and the tint alone.
// The slice is decoded untimed on each run; the timing is the processors' alone. Benchmarks/blur.sh
// makes the input and times Pillow's GaussianBlur of it beside these in the same run.
extension Scenario {
    static let blurs: [Scenario] = [
        processed("blur-1032x486-sigma-10pt-at-3x", [try! GaussianBlur(sigma: 10)]),
        processed("blur-1032x486-sigma-10pt-at-3x-tint-dark", [try! GaussianBlur(sigma: 10), Tint.dark]),
        processed("tint-dark-1032x486", [Tint.dark]),
    ]

    /// The corpus file `blur.sh` writes: the slice, a PNG.
    static let blurInput = "blur/slice-1032x486.png"

    private static func processed(_ name: String, _ processors: [any ImageProcessing]) -> Scenario {
        Scenario(name: name, input: blurInput) { path in
            var image = try Untimed.run { try ImageDecoder.decode(.file(path: path), options: DecodingOptions()) }
            let context = ImageProcessingContext(scale: 3, targetSize: image.size)
            for processor in processors { image = try processor.process(image, context: context) }
            guard image.size == PixelSize(width: 1032, height: 486) else {
                throw ImgCacheError.invalidArgument("the slice is \(image.size), not 1032x486")
            }
        }
    }
}
