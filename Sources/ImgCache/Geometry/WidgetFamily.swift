/// The WidgetKit widget families, named as the CLI takes them (`--widget medium`).
public enum WidgetFamily: String, Sendable, CaseIterable {
    case small
    case medium
    case large
    /// iPad only.
    case extraLarge = "extra-large"
    /// Lock Screen families (iOS 16+).
    case accessoryCircular = "accessory-circular"
    case accessoryRectangular = "accessory-rectangular"
    case accessoryInline = "accessory-inline"

    /// WidgetKit's name for the family (`systemSmall`...).
    public var widgetKitName: String {
        switch self {
        case .small: return "systemSmall"
        case .medium: return "systemMedium"
        case .large: return "systemLarge"
        case .extraLarge: return "systemExtraLarge"
        case .accessoryCircular: return "accessoryCircular"
        case .accessoryRectangular: return "accessoryRectangular"
        case .accessoryInline: return "accessoryInline"
        }
    }
}
