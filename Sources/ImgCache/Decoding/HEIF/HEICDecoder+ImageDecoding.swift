extension HEICDecoder: ImageDecoding {
    static let format = ImageFormat.heic
    static let canAnimate = false
    /// libheif's planes and its interleaved RGB result (8-bit colour, no alpha; a decode checks
    /// its own file's depth and alpha, `workingBytes(for:size:)`).
    static let workingBytesPerSourcePixel = 6

    /// An `ftyp` box whose brands name HEIC or a generic HEIF (`HEIFBrands`).
    static func recognizes(_ prefix: [UInt8]) -> Bool {
        HEIFBrands(prefix)?.format == .heic
    }

    static func decode(_ input: SourceInput, for targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try decode(input, targets: targets, onFrame: onFrame)
    }
}
