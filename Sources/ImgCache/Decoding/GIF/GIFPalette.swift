import CGIF

/// A frame's colours as 256 packed RGBA8 pixels (red in the low byte), one for every index a byte
/// can hold, so that lookups never leave the table.
///
/// - Indices past the colour table (possible in damaged or hand-made files) and the transparent
///   index are transparent (alpha 0): those pixels are not drawn and the canvas shows through.
/// - A frame with no colour table at all (neither local nor global) uses a grey ramp: index i is
///   (i, i, i), as Pillow does.
struct GIFPalette {
    private(set) var entries: [UInt32]

    init(colors: UnsafeBufferPointer<GifColorType>?, transparentIndex: Int?) {
        if let colors {
            entries = [UInt32](repeating: 0, count: 256)
            for (index, color) in colors.prefix(256).enumerated() {
                entries[index] = Self.pack(red: color.Red, green: color.Green, blue: color.Blue)
            }
        } else {
            entries = (0..<256).map { Self.pack(red: UInt8($0), green: UInt8($0), blue: UInt8($0)) }
        }
        if let transparentIndex, transparentIndex < 256 { entries[transparentIndex] = 0 }
    }

    /// An opaque colour as it sits in memory in an RGBA8 bitmap.
    static func pack(red: UInt8, green: UInt8, blue: UInt8) -> UInt32 {
        UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | 0xFF00_0000
    }
}
