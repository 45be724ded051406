extension AVIFDecoder: ImageDecoding {
    static let format = ImageFormat.avif
    static let canAnimate = true
    /// The decoded planes (three 16-bit planes and alpha at most).
    static let workingBytesPerSourcePixel = planeBytesPerPixel

    /// An `ftyp` box whose brands name AVIF (`HEIFBrands`).
    static func recognizes(_ prefix: [UInt8]) -> Bool {
        HEIFBrands(prefix)?.format == .avif
    }

    static func decode(_ input: SourceInput, for targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try decode(input, targets: targets, onFrame: onFrame)
    }
}
