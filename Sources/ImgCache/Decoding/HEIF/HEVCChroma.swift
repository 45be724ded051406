/// The chroma format an HEVC item is coded in, from the `chroma_format_idc` of the first `hvcC`
/// box of the file (grid tiles share one), which libheif 1.15 does not report: decoding in the
/// coded format keeps libheif from converting (upsampling 4:2:0 to 4:4:4, or to RGB).
enum HEVCChroma: Int {
    case monochrome = 0, yuv420, yuv422, yuv444

    /// Where `hvcC` is looked for: the `meta` box comes first in what phones and encoders write.
    static let searchedBytes = 1 << 20

    /// The format of the first `hvcC` box in the first `searchedBytes` of `bytes`, nil when there
    /// is none (not HEVC, say) or it is cut short.
    init?(_ bytes: UnsafeRawBufferPointer) {
        let tag: [UInt8] = Array("hvcC".utf8)
        let end = min(bytes.count, Self.searchedBytes)
        // A box is a 4-byte size and its type; chroma_format_idc is the low 2 bits of the 17th
        // byte of an HEVCDecoderConfigurationRecord.
        var index = 4
        while index + 4 + 17 <= end {
            if bytes[index] == tag[0] && bytes[index + 1] == tag[1] && bytes[index + 2] == tag[2] && bytes[index + 3] == tag[3] {
                self.init(rawValue: Int(bytes[index + 4 + 16] & 0x03))
                return
            }
            index += 1
        }
        return nil
    }

    /// Luma and chroma samples a pixel.
    var samplesPerPixel: Double {
        switch self {
        case .monochrome: return 1
        case .yuv420: return 1.5
        case .yuv422: return 2
        case .yuv444: return 3
        }
    }
}
