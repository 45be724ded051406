/// The size an image is prepared for: pixels, points at a screen scale, or a widget family on a device.
/// Every form resolves to whole pixels: pixels = round(points x scale), halves away from zero.
public enum ImageTarget: Sendable, Hashable {
    case pixels(PixelSize)
    case points(PointSize, scale: Double)
    case widget(WidgetFamily, device: DeviceModel)

    /// A target resolved to pixels, with the scale and point size it stands for.
    public struct Resolved: Sendable, Hashable {
        public let pixels: PixelSize
        /// Screen scale the pixels are meant for (1 for a plain pixel target).
        public let scale: Double
        /// The size in points: the requested points, or pixels / scale.
        public let points: PointSize
    }

    /// Resolves the target; a widget with no published size throws `widgetSizeUnknown`, a
    /// non-positive size or scale throws `invalidArgument`.
    public func resolve() throws -> Resolved {
        switch self {
        case .pixels(let size):
            guard size.width > 0, size.height > 0 else { throw ImgCacheError.invalidArgument("target size \(size) must be positive") }
            return Resolved(pixels: size, scale: 1, points: PointSize(width: Double(size.width), height: Double(size.height)))
        case .points(let points, let scale):
            guard points.width > 0, points.height > 0, scale > 0 else {
                throw ImgCacheError.invalidArgument("target \(points) pt at scale \(scale) must be positive")
            }
            return Resolved(pixels: points.pixels(atScale: scale), scale: scale, points: points)
        case .widget(let family, let device):
            let pixels = try device.widgetPixels(family)
            return Resolved(pixels: pixels, scale: device.scale, points: device.widgetSizes[family]!)
        }
    }
}
