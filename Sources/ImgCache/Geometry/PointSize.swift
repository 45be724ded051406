import Foundation

/// A size in points (UIKit's unit); may be fractional, as some iPad widget sizes are (305.5 pt).
public struct PointSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double

    /// A size of `width` x `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The pixel size at `scale`: each side `round(points x scale)`, halves away from zero, at least 1.
    public func pixels(atScale scale: Double) -> PixelSize {
        PixelSize(width: Self.pixelLength(width * scale), height: Self.pixelLength(height * scale))
    }

    /// `value` rounded half away from zero, within 1...2^30 (NaN gives 1): the conversion never
    /// traps; `ImageTarget.resolve` refuses the sizes this would clamp.
    private static func pixelLength(_ value: Double) -> Int {
        guard value.isFinite else { return value == .infinity ? 1 << 30 : 1 }
        return Int(min(max(value.rounded(.toNearestOrAwayFromZero), 1), Double(1 << 30)))
    }

    /// `"WxH"` with fractions only where there are any (at most two places), e.g. `"338x158"`,
    /// `"305.5x141"` or `"213.33x100.33"`.
    public var description: String { "\(Self.format(width))x\(Self.format(height))" }

    private static func format(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        if hundredths.truncatingRemainder(dividingBy: 100) == 0 { return String(Int(hundredths / 100)) }
        if hundredths.truncatingRemainder(dividingBy: 10) == 0 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }
}
