extension JPEGDecoder: ImageDecoding {
    static let format = ImageFormat.jpeg
    static let canAnimate = false
    /// A progressive JPEG holds its coefficients (about 4 bytes a pixel in 4:4:4 colour).
    static let workingBytesPerSourcePixel = 4

    /// `FF D8 FF`: a start-of-image marker followed by another marker.
    static func recognizes(_ prefix: [UInt8]) -> Bool { prefix.starts(with: [0xFF, 0xD8, 0xFF]) }

    /// Size as displayed (after the EXIF orientation), the orientation and, when `complete`, the
    /// ICC profile.
    static func inspect(_ input: SourceInput, complete: Bool) throws -> ImageInspection {
        let reader = try JPEGReader(input)
        try reader.readHeader()
        let orientation = reader.exifOrientation() ?? .up
        let size = reader.storedSize
        return ImageInspection(
            format: .jpeg, size: orientation.swapsAxes ? size.transposed : size, orientation: orientation,
            colorProfile: complete ? reader.colorProfile() : .none)
    }

    static func decode(_ input: SourceInput, for targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try decode(input, targets: targets, onFrame: onFrame).last!.info
    }
}

extension ImageFormat {
    /// JPEG (JFIF, Exif, Adobe): read and written.
    public static let jpeg = ImageFormat(rawValue: "jpeg", fileExtension: "jpg", mimeType: "image/jpeg")
}
