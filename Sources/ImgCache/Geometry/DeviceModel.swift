/// An iPhone or iPad screen class: the models that share it, its size in points, its UIKit scale
/// and the widget sizes it shows.
public struct DeviceModel: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case iPhone
        case iPad
    }

    /// The catalogue's name for the screen class, e.g. "iPhone 16 Pro / 17 / 17 Pro".
    public let name: String
    /// Every model name that identifies it, e.g. "iPhone 16 Pro", "iPhone 17", "iPhone 17 Pro".
    public let models: [String]
    public let kind: Kind
    /// Screen size in points, portrait.
    public let screen: PointSize
    /// UIKit scale (`UIScreen.scale`): 2 or 3. Plus and mini phones render at this scale and are then
    /// resampled to their panel, so this, not the panel's native scale, is what images target.
    public let scale: Double
    /// Widget sizes in points as shown on the Home Screen (on iPad, the "device" size).
    public let widgetSizes: [WidgetFamily: PointSize]
    /// iPad only: the larger canvas WidgetKit lays widgets out on before scaling them down to
    /// `widgetSizes` (HIG "canvas" column). Empty on iPhone.
    public let widgetCanvasSizes: [WidgetFamily: PointSize]

    /// Screen size in pixels: points x scale.
    public var screenPixels: PixelSize { screen.pixels(atScale: scale) }

    /// The widget's size in pixels as displayed: round(points x scale). On iPad, the device size x 2.
    public func widgetPixels(_ family: WidgetFamily) throws -> PixelSize {
        guard let points = widgetSizes[family] else {
            throw ImgCacheError.widgetSizeUnknown(device: name, family: family.rawValue)
        }
        return points.pixels(atScale: scale)
    }
}
