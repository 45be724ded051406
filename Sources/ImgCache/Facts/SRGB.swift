import Foundation

/// The sRGB transfer function as the BlurHash reference writes it, shared by the facts.
enum SRGB {
    /// Linear light 0...1 of each 8-bit sRGB value.
    static let linear: [Double] = (0...255).map { byte in
        let value = Double(byte) / 255.0
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// The 8-bit sRGB value of linear light `value` (clamped to 0...1), rounded half up.
    static func byte(ofLinear value: Double) -> Int {
        let clamped = max(0.0, min(1.0, value))
        if clamped <= 0.0031308 { return Int(clamped * 12.92 * 255 + 0.5) }
        return Int((1.055 * pow(clamped, 1 / 2.4) - 0.055) * 255 + 0.5)
    }

    /// WCAG relative luminance (0 black ... 1 white) of an 8-bit sRGB colour.
    static func luminance(red: UInt8, green: UInt8, blue: UInt8) -> Double {
        0.2126 * linear[Int(red)] + 0.7152 * linear[Int(green)] + 0.0722 * linear[Int(blue)]
    }
}
