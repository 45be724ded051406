/// Receives each frame as soon as it is decoded, with what is known of the source so far.
public typealias FrameHandler = (ImageFrame, ImageInfo) throws -> Void

/// Decodes JPEG, PNG and GIF, resampling while decoding to the size `DecodingOptions` asks for.
///
/// The format is sniffed from the bytes. Only the frames kept are decoded: an animation stops being
/// read after the last frame the frame limit and budget allow.
public enum ImageDecoder {
    /// Decodes `source` and returns every kept frame.
    public static func decode(_ source: ImageSource, options: DecodingOptions = DecodingOptions()) throws
        -> DecodedImage
    {
        var frames: [ImageFrame] = []
        let info = try decode(source, options: options) { frame, _ in frames.append(frame) }
        return DecodedImage(info: info, frames: frames)
    }

    /// Decodes `source`, handing each kept frame to `onFrame` as soon as it is ready, so that a caller
    /// that writes frames out need not hold them all. Returns what was learned of the source.
    @discardableResult
    public static func decode(
        _ source: ImageSource, options: DecodingOptions = DecodingOptions(), onFrame: FrameHandler
    ) throws -> ImageInfo {
        try options.validate()
        let format = try source.sniffFormat()
        return try source.withInput { input in
            switch format {
            case .png: return try PNGDecoder.decode(input, options: options, onFrame: onFrame)
            case .jpeg: return try JPEGDecoder.decode(input, options: options, onFrame: onFrame)
            case .gif: return try GIFDecoder.decode(input, options: options, onFrame: onFrame)
            }
        }
    }
}
