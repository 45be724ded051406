/// Where a widget can sit on an iPhone home screen: the grid has two columns of small widgets and
/// up to three rows; a medium widget fills a row, a large one two rows (`bottom` starts at the
/// middle row).
public enum SlotPosition: String, Sendable, CaseIterable {
    case topLeft = "top-left"
    case topRight = "top-right"
    case middleLeft = "middle-left"
    case middleRight = "middle-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
    case top
    case middle
    case bottom

    /// The positions a family can take, in reading order.
    public static func positions(for family: WidgetFamily) -> [SlotPosition] {
        switch family {
        case .small: return [.topLeft, .topRight, .middleLeft, .middleRight, .bottomLeft, .bottomRight]
        case .medium: return [.top, .middle, .bottom]
        case .large: return [.top, .bottom]
        default: return []
        }
    }
}

/// One widget slot of a home-screen layout: a family at a position, and its rectangle in screenshot
/// pixels (render pixels = points x UIKit scale).
public struct WidgetSlot: Hashable, Sendable {
    public let family: WidgetFamily
    public let position: SlotPosition
    public let rect: PixelRect

    public init(family: WidgetFamily, position: SlotPosition, rect: PixelRect) {
        self.family = family
        self.position = position
        self.rect = rect
    }

    /// `"FAMILY-POSITION"`, e.g. `medium-top`: the name `imgcache slice --all` gives its file.
    public var name: String { "\(family.rawValue)-\(position.rawValue)" }
}
