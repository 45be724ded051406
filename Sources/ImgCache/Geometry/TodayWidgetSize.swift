/// An iOS 10 Today extension's size (`NCWidgetDisplayMode`): compact, whose height follows the
/// text size, or expanded at its largest, which depends on where the widget is opened and on the
/// orientation. Its width is the Today view's content width. `dimensions(on:)` gives the points
/// with their sources; `ImageTarget.today` the pixels at the device's scale.
public enum TodayWidgetSize: Hashable, Sendable, CustomStringConvertible {
    /// `NCWidgetDisplayModeCompact`, at a text size (default `.l`, 110 pt high).
    case compact(TodayTextSize = .l)
    /// `NCWidgetDisplayModeExpanded` at its largest height, opened from `entry` (default the Today
    /// view), in portrait unless `landscape`.
    case expanded(TodayEntry = .todayView, landscape: Bool = false)

    /// The CLI's name for the mode: `today-compact` or `today-expanded`.
    public var name: String {
        switch self {
        case .compact: return "today-compact"
        case .expanded: return "today-expanded"
        }
    }

    /// A short description, e.g. `today-compact (text size l)` or
    /// `today-expanded (notification-center, landscape)`.
    public var description: String {
        switch self {
        case .compact(let textSize): return "\(name) (text size \(textSize.rawValue))"
        case .expanded(let entry, let landscape): return "\(name) (\(entry.rawValue)\(landscape ? ", landscape" : ""))"
        }
    }

    /// Every compact size and every expanded size a source gives on some phone.
    public static var all: [TodayWidgetSize] {
        TodayTextSize.allCases.map { .compact($0) }
            + [.expanded(.todayView), .expanded(.notificationCenter), .expanded(.todayView, landscape: true), .expanded(.notificationCenter, landscape: true)]
    }
}
