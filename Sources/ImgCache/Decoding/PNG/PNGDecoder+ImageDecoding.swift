extension PNGDecoder: ImageDecoding {
    static let format = ImageFormat.png
    /// APNG animation chunks are ignored: the default image is decoded.
    static let canAnimate = false
    /// An interlaced image is held whole as RGBA.
    static let workingBytesPerSourcePixel = 4

    /// The eight-byte PNG signature `89 50 4E 47 0D 0A 1A 0A`.
    static func recognizes(_ prefix: [UInt8]) -> Bool {
        prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    static func inspect(_ input: SourceInput, complete: Bool) throws -> ImageInspection {
        let reader = try PNGReader(input)
        let header = try reader.readHeader()
        return ImageInspection(
            format: .png, size: PixelSize(width: Int(header.width), height: Int(header.height)),
            colorProfile: complete ? try reader.colorProfile(header) : .none)
    }

    static func decode(_ input: SourceInput, for targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try decode(input, targets: targets, onFrame: onFrame).info
    }
}

extension ImageFormat {
    /// PNG: read and written.
    public static let png = ImageFormat(rawValue: "png", fileExtension: "png", mimeType: "image/png")
}
