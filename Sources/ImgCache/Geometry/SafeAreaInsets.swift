/// The portrait safe-area insets of a screen in points: the status bar, notch or Dynamic Island at
/// the top, the home indicator at the bottom (0 on a device with a home button).
public struct SafeAreaInsets: Hashable, Sendable {
    public var top: Double
    public var bottom: Double

    public init(top: Double, bottom: Double) {
        self.top = top
        self.bottom = bottom
    }
}
