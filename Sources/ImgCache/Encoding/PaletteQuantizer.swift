/// Reduces an RGBA8 bitmap to at most `maxColors` RGBA palette entries, for a PNG with a palette
/// and alpha (PLTE and tRNS).
///
/// 1. Exact: when the bitmap has at most `maxColors` distinct colours (every fully transparent
///    pixel counting as one, transparent black), they are the palette and nothing is lost.
/// 2. Otherwise: `MedianCut` over premultiplied RGBA, refined by one k-means pass (the quantizer
///    GIF uses, with alpha as a fourth channel); each pixel then takes the entry nearest its
///    premultiplied colour, looked up through a cache of the last colour seen in each of 65,536
///    hash slots. Premultiplied, two colours are as far apart as they look over any background,
///    so a faint edge pixel does not take an entry from an opaque colour it can barely show.
///
/// No dithering: as with GIF, error diffusion lowers the PSNR against the source, and its noise
/// costs deflate bytes that a palette is there to save (`make bench-png-palette` puts pngquant with
/// and without Floyd-Steinberg beside it). Entries are written un-premultiplied, the translucent
/// ones first, so that tRNS stops at the last translucent entry.
enum PaletteQuantizer {
    /// A bitmap as palette indices, row by row, with its palette (straight, not premultiplied,
    /// alpha).
    struct Result {
        var indices: [UInt8]
        var palette: [SIMD4<UInt8>]
    }

    /// `bitmap` in at most `maxColors` (1...256) colours.
    static func quantize(_ bitmap: Bitmap, maxColors: Int) -> Result {
        var indices = [UInt8](repeating: 0, count: bitmap.size.area)
        let palette = bitmap.pixels.withUnsafeBufferPointer { pixels in
            indices.withUnsafeMutableBufferPointer { indices in
                exactPalette(pixels, maxColors: maxColors, indices: indices)
                    ?? reducedPalette(pixels, maxColors: maxColors, indices: indices)
            }
        }
        return translucentFirst(Result(indices: indices, palette: palette))
    }

    /// The bitmap's own colours when there are at most `maxColors` of them, filling `indices` on
    /// the way; nil as soon as one more turns up.
    private static func exactPalette(
        _ pixels: UnsafeBufferPointer<UInt8>, maxColors: Int, indices: UnsafeMutableBufferPointer<UInt8>
    ) -> [SIMD4<UInt8>]? {
        // Open addressing over 1024 slots (at most a quarter full); a key has bit 32 set, 0 is empty.
        var keys = [UInt64](repeating: 0, count: 1024)
        var slotIndex = [UInt8](repeating: 0, count: 1024)
        var palette: [SIMD4<UInt8>] = []
        var lastKey: UInt64 = 0, lastIndex: UInt8 = 0
        for pixel in 0..<indices.count {
            let offset = pixel * 4
            var colour = SIMD4(pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
            if colour.w == 0 { colour = .zero }
            let key = UInt64(colour.x) | UInt64(colour.y) << 8 | UInt64(colour.z) << 16 | UInt64(colour.w) << 24 | 1 << 32
            if key != lastKey {
                var slot = Int((UInt32(truncatingIfNeeded: key) &* 2_654_435_761) >> 22)
                while keys[slot] != key {
                    if keys[slot] == 0 {
                        guard palette.count < maxColors else { return nil }
                        keys[slot] = key
                        slotIndex[slot] = UInt8(palette.count)
                        palette.append(colour)
                        break
                    }
                    slot = (slot + 1) & 1023
                }
                lastKey = key
                lastIndex = slotIndex[slot]
            }
            indices[pixel] = lastIndex
        }
        return palette
    }

    /// Median cut in premultiplied RGBA and nearest-entry mapping, for more than `maxColors` colours.
    private static func reducedPalette(
        _ pixels: UnsafeBufferPointer<UInt8>, maxColors: Int, indices: UnsafeMutableBufferPointer<UInt8>
    ) -> [SIMD4<UInt8>] {
        var medianCut = MedianCut()
        let premultiplied = medianCut.palette(for: pixels, maxColors: maxColors, sampling: .premultiplied)
        let search = NearestColor(palette: premultiplied.map { SIMD4<Int32>(truncatingIfNeeded: $0) })
        var cachedKeys = [UInt64](repeating: 0, count: 1 << 16)
        var cachedIndex = [UInt8](repeating: 0, count: 1 << 16)
        for pixel in 0..<indices.count {
            let colour = MedianCut.premultiplied(pixels, at: pixel * 4)
            let packed = UInt32(colour.x) | UInt32(colour.y) << 8 | UInt32(colour.z) << 16 | UInt32(colour.w) << 24
            let key = UInt64(packed) | 1 << 32
            let slot = Int((packed &* 2_654_435_761) >> 16)
            if cachedKeys[slot] != key {
                cachedKeys[slot] = key
                cachedIndex[slot] = UInt8(search.nearest(to: colour))
            }
            indices[pixel] = cachedIndex[slot]
        }
        return premultiplied.map(unpremultiplied)
    }

    /// A premultiplied entry with straight alpha, each channel rounded to nearest.
    private static func unpremultiplied(_ colour: SIMD4<UInt8>) -> SIMD4<UInt8> {
        let alpha = UInt32(colour.w)
        guard alpha > 0 else { return .zero }
        let straight = (SIMD3<UInt32>(UInt32(colour.x), UInt32(colour.y), UInt32(colour.z)) &* 255 &+ alpha / 2) / alpha
        let clamped = straight.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))
        return SIMD4(UInt8(clamped.x), UInt8(clamped.y), UInt8(clamped.z), colour.w)
    }

    /// `result` with its translucent entries moved to the front, indices following.
    private static func translucentFirst(_ result: Result) -> Result {
        let order = result.palette.indices.sorted { left, right in
            let leftOpaque = result.palette[left].w == 255, rightOpaque = result.palette[right].w == 255
            return leftOpaque == rightOpaque ? left < right : !leftOpaque
        }
        var newIndex = [UInt8](repeating: 0, count: 256)
        for (position, old) in order.enumerated() { newIndex[old] = UInt8(position) }
        return Result(indices: result.indices.map { newIndex[Int($0)] }, palette: order.map { result.palette[$0] })
    }
}
