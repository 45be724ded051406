extension ImageFormat {
    /// HEIC: HEVC-coded images in the HEIF container (an iPhone's photos). Read only: its encoder,
    /// x265, is GPL.
    public static let heic = ImageFormat(rawValue: "heic", fileExtension: "heic", mimeType: "image/heic")
    /// AVIF: AV1-coded images and sequences in the HEIF container. Read and written.
    public static let avif = ImageFormat(rawValue: "avif", fileExtension: "avif", mimeType: "image/avif")
}
