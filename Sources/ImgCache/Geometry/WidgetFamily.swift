/// The WidgetKit widget families, named as the CLI takes them (`--widget medium`).
public enum WidgetFamily: String, Sendable, CaseIterable {
    /// A square home-screen widget (`systemSmall`).
    case small
    /// A home-screen widget two small ones wide and one high (`systemMedium`).
    case medium
    /// A home-screen widget two small ones wide and two high (`systemLarge`).
    case large
    /// A home-screen widget twice a large one's width (`systemExtraLarge`); iPad only.
    case extraLarge = "extra-large"
    /// A round Lock Screen widget (`accessoryCircular`, iOS 16+).
    case accessoryCircular = "accessory-circular"
    /// A rectangular Lock Screen widget (`accessoryRectangular`, iOS 16+).
    case accessoryRectangular = "accessory-rectangular"
    /// A line of text on the Lock Screen (`accessoryInline`, iOS 16+).
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
