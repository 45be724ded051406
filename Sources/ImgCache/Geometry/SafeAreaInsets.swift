/// The portrait safe-area insets of a screen in points: the status bar, notch or Dynamic Island at
/// the top, the home indicator at the bottom (0 on a device with a home button).
public struct SafeAreaInsets: Hashable, Sendable {
    /// The inset at the top, in points: the status bar, notch or Dynamic Island.
    public var top: Double
    /// The inset at the bottom, in points: the home indicator (0 with a home button).
    public var bottom: Double

    /// Insets of `top` and `bottom` points.
    public init(top: Double, bottom: Double) {
        self.top = top
        self.bottom = bottom
    }
}
