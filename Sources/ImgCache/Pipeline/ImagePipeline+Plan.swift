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
            options = DecodingOptions(
                targetSize: resolved?.pixels, contentMode: request.contentMode, allowsUpscaling: request.allowsUpscaling,
                maxFrames: request.maxFrames ?? configuration.maxFrames,
                frameBudgetBytes: request.frameBudgetBytes ?? configuration.frameBudgetBytes,
                limits: configuration.limits)
            try options.validate()
            originalKey = request.url.absoluteString
            variantKey = VariantKey.make(url: originalKey, pixels: pixels, options: options, format: request.outputFormat)
        }

        /// The stored format for a decoded image: `.automatic` picks GIF for several frames, else PNG.
        func outputFormat(for image: DecodedImage) -> ImageFormat {
            switch request.outputFormat {
            case .automatic: return image.isAnimated ? .gif : .png
            case .png: return .png
            case .jpeg: return .jpeg
            case .gif: return .gif
            }
        }

        /// `image` encoded as `format` (the first frame only for PNG and JPEG).
        func encode(_ image: DecodedImage, as format: ImageFormat) throws -> Data {
            switch (format, request.outputFormat) {
            case (.gif, _): return try GIFEncoder.encode(image)
            case (.jpeg, .jpeg(let quality)): return try JPEGEncoder.encode(image.frames[0].bitmap, quality: quality)
            case (.jpeg, _): return try JPEGEncoder.encode(image.frames[0].bitmap)
            case (.png, _): return try PNGEncoder.encode(image.frames[0].bitmap)
            }
        }
    }
}
