import ImgCache

// The image facts a widget's variant needs (average and dominant colours, BlurHash, ThumbHash,
// legibility), timed alone on the prepared pixels (the target is < 2 ms), beside the decode that
// prepares them: a 12 MP JPEG cropped to the medium widget at 3x (1014x474) and to the large at
// 3x (1014x1062).
extension Scenario {
    static let facts: [Scenario] = [
        prepareWithFacts("jpeg-4000x3000-crop-1014x474", PixelSize(width: 1014, height: 474), facts: false),
        prepareWithFacts("facts-of-1014x474-variant", PixelSize(width: 1014, height: 474), facts: true),
        prepareWithFacts("facts-of-1014x1062-variant", PixelSize(width: 1014, height: 1062), facts: true),
    ]

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
