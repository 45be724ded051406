import Foundation

extension ImagePipeline {
    /// A request resolved against the configuration: target pixels and scale, decoding options,
    /// and the cache keys of the original and of the variant.
    struct Plan: Sendable {
        let request: ImageRequest
        let pixels: PixelSize?
        let scale: Double
        let options: DecodingOptions
        let originalKey: String
        let variantKey: String

        init(_ request: ImageRequest, _ configuration: Configuration) throws {
            try ImagePipeline.checkScheme(request.url)
            if case .jpeg(let quality) = request.outputFormat, !(1...100).contains(quality) {
                throw ImgCacheError.invalidArgument("JPEG quality \(quality) is not in 1...100")
            }
            let resolved = try request.target?.resolve()
            self.request = request
            pixels = resolved?.pixels
            scale = resolved?.scale ?? 1
            var options = DecodingOptions(
                targetSize: resolved?.pixels, sourceRegion: request.sourceRegion, contentMode: request.contentMode, allowsUpscaling: request.allowsUpscaling,
                maxFrames: request.maxFrames ?? configuration.maxFrames,
                frameBudgetBytes: request.frameBudgetBytes ?? configuration.frameBudgetBytes,
                limits: configuration.limits, colorPolicy: request.colorPolicy)
            // A still format keeps one frame: decoding more would be thrown away.
            if request.outputFormat.isStill { options.maxFrames = 1 }
            try options.validate()
            self.options = options
            originalKey = CacheKey.originalKey(for: request.url)
            variantKey = VariantKey.make(url: originalKey, pixels: pixels, options: options, format: request.outputFormat)
        }

        /// `image` encoded in the requested format, and that format. `.automatic` picks GIF for
        /// several frames, JPEG (quality 85) for one opaque frame and PNG for one with any
        /// translucent pixel; PNG and JPEG keep the first frame only, and under `ColorPolicy.keep`
        /// carry the source's RGB profile (GIF cannot).
        func encode(_ image: DecodedImage) throws -> (data: Data, format: ImageFormat) {
            let first = image.frames[0].bitmap
            let icc = image.info.colorProfile.embeddedBytes(under: options.colorPolicy)
            switch request.outputFormat {
            case .automatic where image.isAnimated, .gif: return (try GIFEncoder.encode(image), .gif)
            case .automatic where first.isOpaque: return (try JPEGEncoder.encode(first, iccProfile: icc), .jpeg)
            case .automatic, .png: return (try PNGEncoder.encode(first, iccProfile: icc), .png)
            case .jpeg(let quality): return (try JPEGEncoder.encode(first, quality: quality, iccProfile: icc), .jpeg)
            }
        }
    }
}
