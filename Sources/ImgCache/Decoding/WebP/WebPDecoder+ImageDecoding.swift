extension WebPDecoder: ImageDecoding {
    static let format = ImageFormat.webp
    static let canAnimate = true
    /// An animation's canvas, and libwebp's copy of the previous canvas.
    static let workingBytesPerSourcePixel = 8

    /// `RIFF`, a four-byte size, then `WEBP`.
    static func recognizes(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 12 && prefix.starts(with: Array("RIFF".utf8)) && prefix[8..<12].elementsEqual("WEBP".utf8)
    }

    static func decode(_ input: SourceInput, for targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try decode(input, targets: targets, onFrame: onFrame)
    }
}

extension ImageFormat {
    /// WebP (lossy, lossless, with alpha, animated): read.
    public static let webp = ImageFormat(rawValue: "webp", fileExtension: "webp", mimeType: "image/webp")
}
