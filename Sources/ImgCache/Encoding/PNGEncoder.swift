import CDeflate
import Foundation

/// Encodes a bitmap as a non-interlaced PNG: 8-bit RGB when every pixel is opaque, RGBA otherwise;
/// or, with `paletteColors`, indexed colour (type 3) with a PLTE of at most that many entries, a
/// tRNS chunk when any entry is translucent, and 1, 2, 4 or 8 bits a pixel by the palette's size
/// (see `PaletteQuantizer`: lossless when the bitmap has no more colours, no dithering).
/// Truecolour rows get the filter with the smallest sum of absolute differences (libpng's
/// heuristic); palette rows are left unfiltered, as the PNG specification advises (on
/// `make bench-png-palette`'s palettes that heuristic took 20 to 40% more bytes). The rows are
/// compressed whole, as one zlib stream, by libdeflate: within a few percent of zlib's size at the
/// same level, in a fraction of its time.
public enum PNGEncoder {
    /// libdeflate level used when none is given: 6, its default balance of size and speed.
    public static let defaultCompressionLevel = 6
    /// The palette sizes `paletteColors` may take: 2 to 256.
    public static let paletteColorRange = 2...256

    /// Encodes `bitmap` as a PNG file's bytes.
    ///
    /// - Parameters:
    ///   - bitmap: the pixels to encode.
    ///   - compressionLevel: libdeflate's level, 0 (stored) to 12 (smallest). Default 6.
    ///   - iccProfile: an RGB ICC profile to embed in an iCCP chunk (at most
    ///     `ColorProfile.maxByteCount` bytes), as `ColorPolicy.keep` asks. Default nil: none.
    ///   - paletteColors: the most palette entries, 2...256, for an indexed-colour PNG; nil (the
    ///     default) for truecolour.
    public static func encode(
        _ bitmap: Bitmap, compressionLevel: Int = defaultCompressionLevel, iccProfile: [UInt8]? = nil,
        paletteColors: Int? = nil
    ) throws -> Data {
        guard (0...12).contains(compressionLevel) else {
            throw ImgCacheError.invalidArgument("PNG compression level \(compressionLevel) is not in 0...12")
        }
        if let iccProfile, iccProfile.isEmpty || iccProfile.count > ColorProfile.maxByteCount {
            throw ImgCacheError.invalidArgument("an ICC profile of \(iccProfile.count) bytes is not in 1...\(ColorProfile.maxByteCount)")
        }
        if let paletteColors, !paletteColorRange.contains(paletteColors) {
            throw ImgCacheError.invalidArgument("a PNG palette of \(paletteColors) colours is not in \(paletteColorRange)")
        }
        let layout: (rows: [UInt8], bitDepth: UInt8, colorType: UInt8)
        var paletteChunks: [(String, Data)] = []
        if let paletteColors {
            let quantized = PaletteQuantizer.quantize(bitmap, maxColors: paletteColors)
            let bitDepth = bitDepth(forEntries: quantized.palette.count)
            layout = (packedRows(quantized.indices, width: bitmap.width, bitDepth: bitDepth), UInt8(bitDepth), 3)
            paletteChunks.append(("PLTE", Data(quantized.palette.flatMap { [$0.x, $0.y, $0.z] })))
            if let lastTranslucent = quantized.palette.lastIndex(where: { $0.w < 255 }) {
                paletteChunks.append(("tRNS", Data(quantized.palette[...lastTranslucent].map(\.w))))
            }
        } else {
            let opaque = bitmap.isOpaque
            layout = (PNGRowFilter.filter(bitmap, channels: opaque ? 3 : 4), 8, opaque ? 2 : 6)
        }
        let compressed = try compress(layout.rows, level: compressionLevel)
        guard compressed.count <= Int(Int32.max) else {
            throw ImgCacheError.encodingFailed(format: .png, detail: "image data of \(compressed.count) bytes is over a chunk's limit")
        }
        var header = Data()
        header.appendBigEndian(UInt32(bitmap.width))
        header.appendBigEndian(UInt32(bitmap.height))
        // Bit depth; colour type 2 (RGB), 6 (RGBA) or 3 (palette); deflate; adaptive filtering; no interlace.
        header.append(contentsOf: [layout.bitDepth, layout.colorType, 0, 0, 0])
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png.reserveCapacity(compressed.count + 64)
        appendChunk("IHDR", header, to: &png)
        if let iccProfile {
            // Keyword, NUL, compression method 0 (zlib), the compressed profile.
            let keyword = Data("ICC profile".utf8) + Data([0, 0])
            appendChunk("iCCP", keyword + (try compress(iccProfile, level: compressionLevel)), to: &png)
        }
        for (type, data) in paletteChunks { appendChunk(type, data, to: &png) }
        appendChunk("IDAT", compressed, to: &png)
        appendChunk("IEND", Data(), to: &png)
        return png
    }

    /// The fewest bits a pixel (1, 2, 4 or 8) that index `entries` palette entries.
    static func bitDepth(forEntries entries: Int) -> Int {
        entries <= 2 ? 1 : entries <= 4 ? 2 : entries <= 16 ? 4 : 8
    }

    /// Palette indices packed `bitDepth` bits a pixel, most significant bits first, each row
    /// preceded by filter type 0 (None).
    static func packedRows(_ indices: [UInt8], width: Int, bitDepth: Int) -> [UInt8] {
        let rowBytes = (width * bitDepth + 7) / 8
        let height = indices.count / width
        var rows = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        let perByte = 8 / bitDepth
        for y in 0..<height {
            let rowStart = y * (rowBytes + 1) + 1
            for x in 0..<width {
                let shift = 8 - bitDepth * (x % perByte + 1)
                rows[rowStart + x / perByte] |= indices[y * width + x] << shift
            }
        }
        return rows
    }

    /// `bytes` as one zlib stream.
    private static func compress(_ bytes: [UInt8], level: Int) throws -> Data {
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
            throw ImgCacheError.encodingFailed(format: .png, detail: "cannot create a libdeflate compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, bytes.count)
        var output = Data(count: bound)
        let size = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { output in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard size > 0 else { throw ImgCacheError.encodingFailed(format: .png, detail: "libdeflate could not compress") }
        output.count = size
        return output
    }

    /// Appends a chunk: length, type, data and the CRC-32 of type and data.
    private static func appendChunk(_ type: String, _ data: Data, to png: inout Data) {
        png.appendBigEndian(UInt32(data.count))
        let typeBytes = Array(type.utf8)
        png.append(contentsOf: typeBytes)
        png.append(data)
        var crc = typeBytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        crc = data.withUnsafeBytes { libdeflate_crc32(crc, $0.baseAddress, $0.count) }
        png.appendBigEndian(crc)
    }
}

extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
