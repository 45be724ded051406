/// The brands of an ISOBMFF file's leading `ftyp` box, which say whether it is HEIC (read with
/// libheif) or AVIF (read with libavif): the file's extension is never consulted.
///
/// AVIF when the major brand is `avif` or `avis`, or when a compatible brand is and the major
/// brand names no HEVC image; HEIC when any brand is an HEVC one (`heic`, `heix`, `heim`, `heis`,
/// `hevc`, `hevx`) or the file is only a generic HEIF (`mif1`, `msf1`, whose codec libheif finds).
struct HEIFBrands: Equatable {
    let major: String
    let compatible: [String]

    static let avifBrands: Set<String> = ["avif", "avis"]
    static let hevcBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
    static let genericBrands: Set<String> = ["mif1", "msf1"]

    /// The brands of the `ftyp` box starting `prefix`, or nil when `prefix` does not start with one
    /// (compatible brands past the end of `prefix` are not read).
    init?(_ prefix: [UInt8]) {
        guard prefix.count >= 12, prefix[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = prefix[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard boxSize >= 16 else { return nil }
        func brand(at offset: Int) -> String {
            String(decoding: prefix[offset..<offset + 4], as: UTF8.self)
        }
        major = brand(at: 8)
        compatible = stride(from: 16, to: min(boxSize, prefix.count) - 3, by: 4).map(brand(at:))
    }

    /// The format these brands name, or nil when they name no image format read here.
    var format: ImageFormat? {
        if Self.avifBrands.contains(major) { return .avif }
        if Self.hevcBrands.contains(major) { return .heic }
        if compatible.contains(where: Self.avifBrands.contains) { return .avif }
        if compatible.contains(where: Self.hevcBrands.contains) || Self.genericBrands.contains(major)
            || compatible.contains(where: Self.genericBrands.contains)
        {
            return .heic
        }
        return nil
    }
}
