import Foundation
import ImgCache

/// How `layout` and `slice` show a home-screen layout and its slots: where the numbers come from,
/// whether they are estimated, and each rectangle in pixels and in points (pixels / scale).
enum LayoutReport {
    /// The layout's facts as JSON fields: screenshot size, scale, icons, iOS versions (and the one
    /// measured on), source, models, `estimated`, `confirmed` and `provenance` (the source's words),
    /// `expected_error_px` (null when measured and confirmed), and `other_sources` (each with its
    /// `largest_difference_px`, `disagrees` when over 3 px).
    static func fields(_ layout: HomeScreenLayout) -> [String: Any] {
        [
            "screenshot": ["width": layout.screenshotSize.width, "height": layout.screenshotSize.height],
            "scale": layout.scale, "icons": layout.icons.rawValue,
            "ios": ["from": layout.iOS.lowerBound, "to": layout.iOS.upperBound, "measured_on": layout.measuredOn],
            "source": layout.source, "models": layout.models,
            "estimated": layout.isEstimated, "confirmed": layout.confirmed, "provenance": layout.provenance,
            "expected_error_px": layout.expectedErrorPixels ?? NSNull() as Any,
            "other_sources": layout.comparisons.map { comparison -> [String: Any] in
                ["source": comparison.source, "largest_difference_px": comparison.largestDifferencePixels,
                 "disagrees": comparison.largestDifferencePixels > HomeScreenLayout.disagreementPixels]
            },
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

    /// The iOS versions a layout describes: "iOS 18", "iOS 16-17" (measured on iOS 16), "iOS 26".
    static func versions(_ layout: HomeScreenLayout) -> String {
        let range = layout.iOS
        guard range.lowerBound != range.upperBound else { return "iOS \(range.lowerBound)" }
        let measured = layout.isEstimated ? "" : " (measured on iOS \(layout.measuredOn))"
        return "iOS \(range.lowerBound)-\(range.upperBound)\(measured)"
    }

    /// Two lines or more: the size, scale, icons and iOS versions; then whether the numbers are
    /// measured (where, and whether the source confirmed them for the version, in its words) or
    /// estimated (and how closely); then a line for each other source that disagrees by more than
    /// 3 px.
    static func summary(_ layout: HomeScreenLayout) -> String {
        var lines = ["\(layout.screenshotSize) @\(number(layout.scale))x, \(layout.icons.rawValue) icons, \(versions(layout))"]
        if layout.isEstimated {
            lines.append("estimated (expected error about \(layout.expectedErrorPixels ?? 0) px): \(layout.source)")
        } else {
            lines.append("measured: \(layout.source); models \(layout.models)")
            lines.append(layout.confirmed
                ? "confirmed for iOS \(layout.measuredOn): \"\(layout.provenance)\""
                : "not confirmed for iOS \(layout.measuredOn) (expected error about \(layout.expectedErrorPixels ?? 0) px): \"\(layout.provenance)\"")
        }
        for disagreement in layout.disagreements {
            lines.append("sources disagree: \(disagreement.source) puts slots up to \(disagreement.largestDifferencePixels) px elsewhere")
        }
        return lines.joined(separator: "\n")
    }

    /// The overlay's caption: "1206x2622, small icons, iOS 18: measured (16 Pro)", or for an
    /// estimate or an unconfirmed row "...: ESTIMATED, expected error about N px" / "...: measured
    /// (MODELS), not confirmed for iOS N, expected error about N px".
    static func caption(_ layout: HomeScreenLayout) -> String {
        let what = "\(layout.screenshotSize), \(layout.icons.rawValue) icons, \(versions(layout))"
        guard let error = layout.expectedErrorPixels else { return "\(what): measured (\(layout.models))" }
        return layout.isEstimated ? "\(what): ESTIMATED, expected error about \(error) px"
            : "\(what): measured (\(layout.models)), not confirmed for iOS \(layout.measuredOn), expected error about \(error) px"
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
