import Foundation
import ImgCache

/// How `layout` and `slice` show a home-screen layout and its slots: where the numbers come from,
/// whether they are estimated, and each rectangle in pixels and in points (pixels / scale).
enum LayoutReport {
    /// The layout's facts as JSON fields: screenshot size, scale, icons, iOS versions, source,
    /// models, `estimated` and `expected_error_px` (null when measured).
    static func fields(_ layout: HomeScreenLayout) -> [String: Any] {
        [
            "screenshot": ["width": layout.screenshotSize.width, "height": layout.screenshotSize.height],
            "scale": layout.scale, "icons": layout.icons.rawValue,
            "ios": ["from": layout.iOS.lowerBound, "to": layout.iOS.upperBound == Int.max ? NSNull() : layout.iOS.upperBound as Any],
            "source": layout.source, "models": layout.models,
            "estimated": layout.isEstimated, "expected_error_px": layout.expectedErrorPixels ?? NSNull() as Any,
        ]
    }

    /// A slot as JSON fields: name, family, position, and its rectangle in pixels and in points.
    static func fields(_ slot: WidgetSlot, scale: Double) -> [String: Any] {
        let rect = slot.rect
        return [
            "name": slot.name, "family": slot.family.rawValue, "position": slot.position.rawValue,
            "pixels": ["x": rect.x, "y": rect.y, "width": rect.width, "height": rect.height],
            "points": [
                "x": Double(rect.x) / scale, "y": Double(rect.y) / scale,
                "width": Double(rect.width) / scale, "height": Double(rect.height) / scale,
            ],
        ]
    }

    /// Two lines: the size, scale, icons and iOS versions; then whether the numbers are measured
    /// (and where) or estimated (and how closely).
    static func summary(_ layout: HomeScreenLayout) -> String {
        let versions = layout.iOS.upperBound == Int.max ? "\(layout.iOS.lowerBound) and later"
            : "\(layout.iOS.lowerBound)-\(layout.iOS.upperBound)"
        let provenance = layout.expectedErrorPixels.map { "estimated (expected error about \($0) px): \(layout.source)" }
            ?? "measured: \(layout.source); models \(layout.models)"
        return "\(layout.screenshotSize) @\(number(layout.scale))x, \(layout.icons.rawValue) icons, iOS \(versions)\n\(provenance)"
    }

    /// The overlay's caption: "1206x2622, small icons, iOS 18+: measured (16 Pro)", or for an
    /// estimate "...: ESTIMATED, expected error about N px".
    static func caption(_ layout: HomeScreenLayout) -> String {
        let what = "\(layout.screenshotSize), \(layout.icons.rawValue) icons, iOS \(layout.iOS.lowerBound)+"
        return layout.expectedErrorPixels.map { "\(what): ESTIMATED, expected error about \($0) px" } ?? "\(what): measured (\(layout.models))"
    }

    /// `rect` as "X,Y WxH" in pixels, or in points at `scale`.
    static func text(_ rect: PixelRect, scale: Double = 1) -> String {
        let numbers = [rect.x, rect.y, rect.width, rect.height].map { number(Double($0) / scale) }
        return "\(numbers[0]),\(numbers[1]) \(numbers[2])x\(numbers[3])"
    }

    /// `value` with up to two decimals: "29", "32.67".
    private static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
