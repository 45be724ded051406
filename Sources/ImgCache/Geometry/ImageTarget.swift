/// The size an image is prepared for: pixels, points at a screen scale, a widget family on a device,
/// or an iOS 10 Today widget on a device. Every form resolves to whole pixels: pixels =
/// round(points x scale), halves away from zero.
public enum ImageTarget: Sendable, Hashable {
    /// Exactly this many pixels (scale 1).
    case pixels(PixelSize)
    /// A size in points at a screen scale (2 or 3 on current iPhones): round(points x scale)
    /// pixels.
    case points(PointSize, scale: Double)
    /// The widget's published size on the device; for a home-screen family no source publishes
    /// (iPhone Air), the home-screen model's estimate, flagged in `Resolved.estimate`.
    case widget(WidgetFamily, device: DeviceModel)
    /// An iOS 10 Today extension's size on the device (see `TodayWidgetSize.dimensions(on:)`).
    case today(TodayWidgetSize, device: DeviceModel)

    /// A target resolved to pixels, with the scale and point size it stands for.
    public struct Resolved: Sendable, Hashable {
        /// The size in whole pixels the image is prepared at.
        public let pixels: PixelSize
        /// Screen scale the pixels are meant for (1 for a plain pixel target).
        public let scale: Double
        /// The size in points: the requested points, or pixels / scale.
        public let points: PointSize
        /// Non-nil when the size is estimated rather than published: how, and how far off it may be.
        public let estimate: SizeEstimate?

        /// True when the size is estimated.
        public var isEstimated: Bool { estimate != nil }
        /// The estimate's expected error in pixels, when it has one.
        public var expectedErrorPixels: Int? { estimate?.expectedErrorPixels }
    }

    /// The largest side of a target, in pixels: 65,535 (a PNG or GIF could not hold more, nor
    /// most decoders read it).
    public static let maxSide = 65_535
    /// Scales accepted with a points target: more than 0 and at most 16.
    public static let scales: ClosedRange<Double> = Double.leastNonzeroMagnitude...16

    /// Resolves the target. A widget with neither a published nor an estimated size throws
    /// `widgetSizeUnknown`; a Today size no source gives, `invalidArgument`; so does a size that is
    /// not positive or has a side over `maxSide` pixels, or a scale that is not finite or not in
    /// `scales`.
    public func resolve() throws -> Resolved {
        switch self {
        case .pixels(let size):
            guard size.width > 0, size.height > 0, size.width <= Self.maxSide, size.height <= Self.maxSide else {
                throw ImgCacheError.invalidArgument("target size \(size) must be positive, at most \(Self.maxSide) a side")
            }
            return Resolved(pixels: size, scale: 1, points: PointSize(width: Double(size.width), height: Double(size.height)), estimate: nil)
        case .points(let points, let scale):
            guard points.width > 0, points.height > 0, points.width.isFinite, points.height.isFinite,
                  scale.isFinite, Self.scales.contains(scale),
                  points.width * scale < Double(Self.maxSide) + 0.5, points.height * scale < Double(Self.maxSide) + 0.5
            else {
                throw ImgCacheError.invalidArgument(
                    "target \(points) pt at scale \(scale): sizes must be positive, the scale in (0, 16], the pixels at most \(Self.maxSide) a side")
            }
            return Resolved(pixels: points.pixels(atScale: scale), scale: scale, points: points, estimate: nil)
        case .widget(let family, let device):
            let size = try device.widgetSize(family)
            return Resolved(pixels: size.points.pixels(atScale: device.scale), scale: device.scale, points: size.points, estimate: size.estimate)
        case .today(let size, let device):
            let dimensions = try size.dimensions(on: device)
            return Resolved(
                pixels: dimensions.points.pixels(atScale: device.scale), scale: device.scale, points: dimensions.points,
                estimate: dimensions.estimate)
        }
    }
}
