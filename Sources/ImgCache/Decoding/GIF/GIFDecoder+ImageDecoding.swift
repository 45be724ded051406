extension GIFDecoder: ImageDecoding {
    static let format = ImageFormat.gif
    static let canAnimate = true
    /// The canvas, and as much again saved for a frame that restores what was under it.
    static let workingBytesPerSourcePixel = 8

    /// `GIF87a` or `GIF89a`.
    static func recognizes(_ prefix: [UInt8]) -> Bool {
        prefix.starts(with: Array("GIF87a".utf8)) || prefix.starts(with: Array("GIF89a".utf8))
    }

    /// The canvas size; with `complete`, every frame counted (the whole file is read, no
    /// pixel decoded) and the loop count.
    static func inspect(_ input: SourceInput, complete: Bool) throws -> ImageInspection {
        guard complete else { return ImageInspection(format: .gif, size: try GIFReader(input).canvasSize) }
        let gif = try inspect(input)
        return ImageInspection(format: .gif, size: gif.canvas, frameCount: gif.frameCount, loopCount: gif.loopCount)
    }

    static func decode(_ input: SourceInput, for targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try decode(input, targets: targets, onFrame: onFrame)
    }
}

extension ImageFormat {
    /// GIF (87a and 89a, animated or not): read and written.
    public static let gif = ImageFormat(rawValue: "gif", fileExtension: "gif", mimeType: "image/gif")
}
