/// A colour of 8-bit sRGB channels with straight (not premultiplied) alpha: a padding's fill, the
/// background a translucent image is flattened over for JPEG, a tint.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0 to 255.
    public var red: UInt8
    /// Green, 0 to 255.
    public var green: UInt8
    /// Blue, 0 to 255.
    public var blue: UInt8
    /// 255 is opaque, 0 transparent. Default 255.
    public var alpha: UInt8

    /// A colour of these channels; `alpha` default 255 (opaque).
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// Opaque white.
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Transparent black: a padding's default fill.
    public static let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The colour written as `RRGGBB` or `RRGGBBAA` hex digits (either case, an optional leading
    /// `#`), as imgproxy's `bg` and CSS write it; nil for anything else.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16)
        else { return nil }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(red: UInt8(rgba >> 24), green: UInt8(rgba >> 16 & 0xFF), blue: UInt8(rgba >> 8 & 0xFF), alpha: UInt8(rgba & 0xFF))
    }

    /// `RRGGBBAA` in lower-case hex, as variant keys write it.
    public var description: String {
        [red, green, blue, alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
