/// An iOS 10 Today widget's size on one device, in points, with where each figure comes from.
public struct TodayWidgetDimensions: Hashable, Sendable {
    /// The widget's width and height in points.
    public let points: PointSize
    /// Where the width comes from (or how it was estimated).
    public let widthSource: String
    /// Where the height comes from.
    public let heightSource: String
    /// Non-nil when a figure is estimated rather than given by a source.
    public let estimate: SizeEstimate?
}
