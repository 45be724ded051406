extension HEICDecoder: ImageDecoding {
    static let format = ImageFormat.heic
    static let canAnimate = false
    /// libheif's memory for 8-bit 4:2:0 without alpha, what phones write (a decode checks its own
    /// file's chroma, depth and alpha: `workingBytes(for:chroma:size:)`).
    static let workingBytesPerSourcePixel = 5

    /// An `ftyp` box whose brands name HEIC or a generic HEIF (`HEIFBrands`).
    static func recognizes(_ prefix: [UInt8]) -> Bool {
        HEIFBrands(prefix)?.format == .heic
    }

    static func decode(_ input: SourceInput, for targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try decode(input, targets: targets, onFrame: onFrame)
    }
}
