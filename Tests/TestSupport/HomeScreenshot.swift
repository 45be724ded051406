import CDeflate
import Foundation
import ImgCache

/// Synthetic home-screen screenshots for the slicing tests: a vertical gradient with widget slots
/// painted over it, each its own colour, written as PNG quickly enough for full phone sizes in a
/// debug build.
public enum HomeScreenshot {
    /// The colour of the slot at `index`, RGBA: every index below 16 its own, each with blue of
    /// 100 or more and opaque (the gradient's blue is 0).
    public static func colour(_ index: Int) -> [UInt8] {
        [UInt8(40 + 13 * index), UInt8(230 - 11 * index), UInt8(100 + 9 * index), 255]
    }

    /// The gradient's colour at row `y`: red and green follow the row, blue is 0.
    public static func background(row y: Int) -> [UInt8] {
        [UInt8(y & 0xFF), UInt8((y >> 8) * 16 & 0xFF), 0, 255]
    }

    /// A `size` screenshot: the gradient, with each rectangle of `painted` filled with its colour
    /// (later ones over earlier ones).
    public static func bitmap(size: PixelSize, painted: [(rect: PixelRect, colour: [UInt8])]) throws -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: size.area * 4)
        pixels.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self).baseAddress!
            for y in 0..<size.height {
                (words + y * size.width).update(repeating: word(background(row: y)), count: size.width)
            }
            for (rect, colour) in painted {
                for y in rect.y..<rect.maxY {
                    (words + y * size.width + rect.x).update(repeating: word(colour), count: rect.width)
                }
            }
        }
        return try Bitmap(size: size, pixels: pixels)
    }

    /// Writes the PNG of `bitmap(size:painted:)` to `url` and returns its path.
    @discardableResult
    public static func write(size: PixelSize, painted: [(rect: PixelRect, colour: [UInt8])] = [], to url: URL) throws -> String {
        try png(bitmap(size: size, painted: painted)).write(to: url)
        return url.path
    }

    /// The slots in groups whose rectangles do not overlap: the small ones, the medium ones, and
    /// each large one alone (a large widget at `bottom` overlaps the one at `top`).
    public static func disjointGroups(_ slots: [WidgetSlot]) -> [[WidgetSlot]] {
        [slots.filter { $0.family == .small }, slots.filter { $0.family == .medium }]
            + slots.filter { $0.family == .large }.map { [$0] }
    }

    /// The pixels of `rect` in `bitmap`, copied.
    public static func crop(_ bitmap: Bitmap, _ rect: PixelRect) throws -> Bitmap {
        var pixels = [UInt8]()
        pixels.reserveCapacity(rect.width * rect.height * 4)
        for y in rect.y..<rect.maxY {
            let start = (y * bitmap.width + rect.x) * 4
            pixels += bitmap.pixels[start..<start + rect.width * 4]
        }
        return try Bitmap(size: rect.size, pixels: pixels)
    }

    /// True when every pixel of `bitmap` is `colour` (RGBA).
    public static func isFilled(_ bitmap: Bitmap, with colour: [UInt8]) -> Bool {
        let expected = [UInt32](repeating: word(colour), count: bitmap.width * bitmap.height)
        return expected.withUnsafeBytes { expected in
            bitmap.pixels.withUnsafeBytes { actual in
                actual.count == expected.count && memcmp(actual.baseAddress!, expected.baseAddress!, actual.count) == 0
            }
        }
    }

    /// `bitmap` as an RGBA PNG whose rows are unfiltered, compressed by libdeflate at level 1.
    public static func png(_ bitmap: Bitmap) -> Data {
        var raw = Data(capacity: bitmap.height * (bitmap.width * 4 + 1))
        bitmap.pixels.withUnsafeBytes { pixels in
            for y in 0..<bitmap.height {
                raw.append(0)
                raw.append(contentsOf: pixels[(y * bitmap.width * 4)..<((y + 1) * bitmap.width * 4)])
            }
        }
        let compressor = libdeflate_alloc_compressor(1)!
        defer { libdeflate_free_compressor(compressor) }
        var compressed = Data(count: libdeflate_zlib_compress_bound(compressor, raw.count))
        let size = raw.withUnsafeBytes { input in
            compressed.withUnsafeMutableBytes { output in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        compressed.count = size
        var header = Data()
        for value in [UInt32(bitmap.width), UInt32(bitmap.height)] { withUnsafeBytes(of: value.bigEndian) { header.append(contentsOf: $0) } }
        header.append(contentsOf: [8, 6, 0, 0, 0])
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        for (type, data) in [("IHDR", header), ("IDAT", compressed), ("IEND", Data())] {
            withUnsafeBytes(of: UInt32(data.count).bigEndian) { png.append(contentsOf: $0) }
            let chunk = Data(type.utf8) + data
            png.append(chunk)
            let crc = chunk.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
            withUnsafeBytes(of: crc.bigEndian) { png.append(contentsOf: $0) }
        }
        return png
    }

    private static func word(_ colour: [UInt8]) -> UInt32 {
        UInt32(colour[0]) | UInt32(colour[1]) << 8 | UInt32(colour[2]) << 16 | UInt32(colour[3]) << 24
    }
}
