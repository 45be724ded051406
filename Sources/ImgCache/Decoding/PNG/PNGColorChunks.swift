import CDeflate
import CPNG
import Foundation

/// The colour profile of a PNG's chunks, in order of precedence:
/// 1. iCCP: the ICC profile (grey for a grey image, RGB otherwise);
/// 2. sRGB: sRGB, nothing to convert;
/// 3. gAMA, with cHRM's white point and primaries (or sRGB's without cHRM, and always for a grey
///    image, where primaries mean nothing): a profile built with that gamma. A gamma within 0.005 of
///    1/2.2 with sRGB's primaries is taken as sRGB, as browsers do, so files that only say "2.2"
///    are left as they are.
///
/// cHRM alone (no gamma) says too little to convert and is ignored.
enum PNGColorChunks {
    static func profile(_ chunks: imgpng_color_chunks, isGray: Bool) -> SourceColorProfile {
        if let iccp = chunks.iccp {
            do throws(ColorProfile.Malformed) {
                let bytes = try profileBytes(iCCP: UnsafeRawBufferPointer(start: iccp, count: chunks.iccp_length))
                return SourceColorProfile(iccBytes: bytes, imageColorSpace: isGray ? .gray : .rgb)
            } catch {
                return .malformed(reason: error.reason)
            }
        }
        if chunks.has_srgb != 0 { return .profile(ColorProfile.sRGB.described(as: "sRGB (PNG sRGB chunk)")) }
        guard chunks.has_gamma != 0 else { return .none }
        let chromaticities = chunks.has_chromaticities != 0 && !isGray
            ? ColorProfile.Chromaticities(
                white: (chunks.white_x, chunks.white_y), red: (chunks.red_x, chunks.red_y),
                green: (chunks.green_x, chunks.green_y), blue: (chunks.blue_x, chunks.blue_y))
            : .sRGB
        let gamma = chunks.gamma
        let gammaText = String(format: "%.5f", gamma)
        if abs(gamma - 1 / 2.2) <= 0.005 && chromaticities.isClose(to: .sRGB) {
            return .profile(ColorProfile.sRGB.described(as: "sRGB (PNG gAMA \(gammaText))"))
        }
        let description = chunks.has_chromaticities != 0 && !isGray ? "PNG gAMA \(gammaText) and cHRM" : "PNG gAMA \(gammaText)"
        do throws(ColorProfile.Malformed) {
            return .profile(try ColorProfile(chromaticities: chromaticities, encodingGamma: gamma, description: description))
        } catch {
            return .malformed(reason: error.reason)
        }
    }

    /// The profile in an iCCP chunk's data: a keyword of 1 to 79 bytes, NUL, compression method 0,
    /// then the profile as a zlib stream, inflated to at most `ColorProfile.maxByteCount` bytes.
    static func profileBytes(iCCP data: UnsafeRawBufferPointer) throws(ColorProfile.Malformed) -> [UInt8] {
        guard let nul = data.prefix(80).firstIndex(of: 0), nul >= 1, nul + 1 < data.count, data[nul + 1] == 0 else {
            throw ColorProfile.Malformed(reason: "the iCCP chunk has no keyword or an unknown compression method")
        }
        return try inflate(UnsafeRawBufferPointer(rebasing: data[(nul + 2)...]))
    }

    /// The zlib stream `compressed` inflated, trying 64 KiB of output first and growing fourfold up to
    /// `ColorProfile.maxByteCount`.
    private static func inflate(_ compressed: UnsafeRawBufferPointer) throws(ColorProfile.Malformed) -> [UInt8] {
        guard let decompressor = libdeflate_alloc_decompressor() else { throw ColorProfile.Malformed(reason: "out of memory") }
        defer { libdeflate_free_decompressor(decompressor) }
        var capacity = 64 << 10
        while true {
            var output = [UInt8](repeating: 0, count: capacity)
            var produced = 0
            let result = output.withUnsafeMutableBytes { output in
                libdeflate_zlib_decompress(decompressor, compressed.baseAddress, compressed.count, output.baseAddress, output.count, &produced)
            }
            switch result {
            case LIBDEFLATE_SUCCESS:
                output.removeSubrange(produced...)
                return output
            case LIBDEFLATE_INSUFFICIENT_SPACE where capacity < ColorProfile.maxByteCount:
                capacity = min(capacity * 4, ColorProfile.maxByteCount)
            case LIBDEFLATE_INSUFFICIENT_SPACE:
                throw ColorProfile.Malformed(reason: "the iCCP profile inflates to over \(ColorProfile.maxByteCount) bytes")
            default:
                throw ColorProfile.Malformed(reason: "the iCCP chunk's zlib stream is corrupt")
            }
        }
    }
}
