import Foundation
import ImgCache

// The image facts a widget's variant needs (average and dominant colours, BlurHash, ThumbHash,
// legibility), timed alone on the prepared pixels (the target is < 2 ms), beside the decode that
// prepares them: a 12 MP JPEG cropped to the medium widget at 3x (1014x474) and to the large at
// 3x (1014x1062). Then through a pipeline with a new disk cache each run: the medium widget's
// variant with its pixels (`image(for:)`), and with its facts (`facts(for:)`, which also stores
// them).
extension Scenario {
    static let facts: [Scenario] = [
        prepareWithFacts("jpeg-4000x3000-crop-1014x474", PixelSize(width: 1014, height: 474), facts: false),
        prepareWithFacts("facts-of-1014x474-variant", PixelSize(width: 1014, height: 474), facts: true),
        prepareWithFacts("facts-of-1014x1062-variant", PixelSize(width: 1014, height: 1062), facts: true),
        throughPipeline("pipeline-image-1014x474", facts: false),
        throughPipeline("pipeline-facts-1014x474", facts: true),
    ]

    /// The medium widget's variant of the corpus photo through a new pipeline: `image(for:)`, or
    /// `facts(for:)` with `facts`.
    private static func throughPipeline(_ name: String, facts: Bool) -> Scenario {
        let runs = Counter()
        return Scenario(name: name, input: "photo-4000x3000.jpg") { path in
            let pipeline = try Untimed.run { try newPipeline("\(name)-\(runs.next())") }
            defer { Untimed.run { try? wait { await pipeline.shutdown() } } }
            let request = ImageRequest(
                url: URL(fileURLWithPath: path), target: .pixels(PixelSize(width: 1014, height: 474)), contentMode: .crop)
            if facts {
                _ = try wait { try await pipeline.facts(for: request) }
            } else {
                _ = try wait { try await pipeline.image(for: request) }
            }
        }
    }

    /// With `facts`, times only the facts of the prepared variant (the decode untimed); without,
    /// times the decode alone.
    private static func prepareWithFacts(_ name: String, _ size: PixelSize, facts: Bool) -> Scenario {
        Scenario(name: name, input: "photo-4000x3000.jpg") { path in
            let prepare = {
                try ImageDecoder.decode(.file(path: path), options: DecodingOptions(targetSize: size, contentMode: .crop))
            }
            guard facts else {
                _ = try prepare()
                return
            }
            let bitmap = try Untimed.run(prepare).frames[0].bitmap
            let result = try ImageFacts(of: bitmap)
            guard result.blurHash.count == 28 else { throw ImgCacheError.invalidArgument("a 4x3 BlurHash has 28 characters") }
        }
    }
}
