/// An iOS app extension that shows images, and the memory it lives in (1 MB = 2^20 bytes, as
/// iOS's jetsam counts).
public enum ExtensionMemory: String, Sendable, Hashable, CaseIterable {
    /// A WidgetKit widget (iOS 14+): 30 MB for the extension and all of its timeline's entries
    /// together ("high watermark memory limit exceeded (limit=30 MB)"; FB8832751).
    case widgetKit = "widgetkit"
    /// A Today (Notification Center) extension of iOS 8-13: about 16 MB, measured by the community.
    case today

    /// The extension's memory limit.
    public var limitBytes: Int {
        switch self {
        case .widgetKit: return 30 << 20
        case .today: return 16 << 20
        }
    }

    /// Memory kept back from the images for the extension itself: 10 MB, its code and the system
    /// frameworks it links (UIKit or SwiftUI and WidgetKit), its timeline and its views' own
    /// drawing, the undecoded image bytes. A Today widget of a table of ten cells was measured at
    /// "under ~10M" (Stack Overflow 28195320), and one database opened in a widget alone took up to
    /// 20 MB (home-assistant/iOS#2741): 10 MB is the floor a plain extension needs, not a margin.
    public var reserveBytes: Int { 10 << 20 }

    /// What the images of a timeline may take: the limit less the reserve (20 MB for WidgetKit,
    /// 6 MB for Today).
    public var imageBytes: Int { limitBytes - reserveBytes }
}
