/// An iPhone or iPad screen class: the models that share it, its size in points, its UIKit scale,
/// its safe-area insets and the widget sizes it shows.
public struct DeviceModel: Sendable, Hashable {
    /// Whether a screen class is a phone's or a tablet's.
    public enum Kind: String, Sendable {
        /// An iPhone.
        case iPhone
        /// An iPad.
        case iPad
    }

    /// The catalogue's name for the screen class, e.g. "iPhone 16 Pro / 17 / 17 Pro".
    public let name: String
    /// Every model name that identifies it, e.g. "iPhone 16 Pro", "iPhone 17", "iPhone 17 Pro".
    public let models: [String]
    /// Whether the screen class is an iPhone's or an iPad's.
    public let kind: Kind
    /// Screen size in points, portrait.
    public let screen: PointSize
    /// UIKit scale (`UIScreen.scale`): 2 or 3. Plus and mini phones render at this scale and are then
    /// resampled to their panel, so this, not the panel's native scale, is what images target.
    public let scale: Double
    /// Portrait safe-area insets in points, as of the latest iOS the catalogue's sources probed.
    public let safeAreaInsets: SafeAreaInsets
    /// Widget sizes in points as shown on the Home Screen (on iPad, the "device" size).
    public let widgetSizes: [WidgetFamily: PointSize]
    /// iPad only: the larger canvas WidgetKit lays widgets out on before scaling them down to
    /// `widgetSizes` (HIG "canvas" column). Empty on iPhone.
    public let widgetCanvasSizes: [WidgetFamily: PointSize]
    /// True when `widgetSizes` were measured on home-screen screenshots (the 402x874 and 440x956
    /// phones, which the HIG table lacks) rather than published by Apple.
    public let widgetSizesFromScreenshots: Bool

    /// True for a device with a home button: nothing at the bottom of its safe area. The others
    /// have Face ID and a home indicator.
    public var hasHomeButton: Bool { safeAreaInsets.bottom == 0 }

    /// Screen size in pixels: points x scale.
    public var screenPixels: PixelSize { screen.pixels(atScale: scale) }

    /// The widget's published size in pixels as displayed: round(points x scale). On iPad, the
    /// device size x 2. A size no source publishes throws `widgetSizeUnknown` (see `widgetSize` for
    /// an estimate).
    public func widgetPixels(_ family: WidgetFamily) throws -> PixelSize {
        guard let points = widgetSizes[family] else {
            throw ImgCacheError.widgetSizeUnknown(device: name, family: family.rawValue)
        }
        return points.pixels(atScale: scale)
    }

    /// The widget's size in points: the published one (estimate nil), else, for a home-screen
    /// family (small, medium, large) on an iPhone that no source gives it for (iPhone Air), the
    /// size the home-screen grid model estimates (whole points, as every published size is) with
    /// its expected error. Throws `widgetSizeUnknown` when there is neither.
    public func widgetSize(_ family: WidgetFamily) throws -> (points: PointSize, estimate: SizeEstimate?) {
        if let points = widgetSizes[family] { return (points, nil) }
        guard let estimated = HomeScreenEstimator.widgetSize(family, of: self) else {
            throw ImgCacheError.widgetSizeUnknown(device: name, family: family.rawValue)
        }
        return (estimated.points, estimated.estimate)
    }
}
