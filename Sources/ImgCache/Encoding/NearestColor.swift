/// Finds the palette entry nearest a colour by squared RGBA distance (alpha counting as a fourth
/// channel; GIF's palettes hold alpha 255 throughout, so for them it is the RGB distance).
///
/// The palette is sorted by green; a query starts at its own green value and walks outward in both
/// directions, stopping on each side once the green difference alone is no better than the best
/// distance found. Exact, and several times faster than trying all 256 entries.
struct NearestColor {
    private struct Entry {
        var red: Int32, green: Int32, blue: Int32, alpha: Int32
        var index: Int
    }

    private let entries: [Entry]

    init(palette: [SIMD4<Int32>]) {
        entries = palette.enumerated()
            .map { Entry(red: $0.element.x, green: $0.element.y, blue: $0.element.z, alpha: $0.element.w, index: $0.offset) }
            .sorted { $0.green < $1.green }
    }

    /// Index (in the palette given to `init`) of the entry nearest `colour`; 0 for an empty palette.
    func nearest(to colour: SIMD4<Int32>) -> Int {
        entries.withUnsafeBufferPointer { entries in
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].green < colour.y { low = middle + 1 } else { high = middle }
            }
            var best = Int32.max, bestIndex = 0
            var up = low, down = low - 1
            while up < entries.count || down >= 0 {
                if up < entries.count {
                    let entry = entries[up]
                    let dg = entry.green - colour.y
                    if dg * dg >= best {
                        up = entries.count
                    } else {
                        let distance = Self.distance(entry, colour, dg)
                        if distance < best { best = distance; bestIndex = entry.index }
                        up += 1
                    }
                }
                if down >= 0 {
                    let entry = entries[down]
                    let dg = colour.y - entry.green
                    if dg * dg >= best {
                        down = -1
                    } else {
                        let distance = Self.distance(entry, colour, dg)
                        if distance < best { best = distance; bestIndex = entry.index }
                        down -= 1
                    }
                }
            }
            return bestIndex
        }
    }

    @inline(__always)
    private static func distance(_ entry: Entry, _ colour: SIMD4<Int32>, _ dg: Int32) -> Int32 {
        let dr = entry.red - colour.x, db = entry.blue - colour.z, da = entry.alpha - colour.w
        return dr * dr + dg * dg + db * db + da * da
    }
}
