/// Where a widget can sit on an iPhone home screen: the grid has two columns of small widgets and
/// up to three rows; a medium widget fills a row, a large one two rows (`bottom` starts at the
/// middle row).
public enum SlotPosition: String, Sendable, CaseIterable {
    /// A small widget in the left column of the top row.
    case topLeft = "top-left"
    /// A small widget in the right column of the top row.
    case topRight = "top-right"
    /// A small widget in the left column of the middle row.
    case middleLeft = "middle-left"
    /// A small widget in the right column of the middle row.
    case middleRight = "middle-right"
    /// A small widget in the left column of the bottom row.
    case bottomLeft = "bottom-left"
    /// A small widget in the right column of the bottom row.
    case bottomRight = "bottom-right"
    /// A medium widget across the top row, or a large one over the top and middle rows.
    case top
    /// A medium widget across the middle row.
    case middle
    /// A medium widget across the bottom row, or a large one over the middle and bottom rows.
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
    /// The widget's size class: small, medium or large.
    public let family: WidgetFamily
    /// Where on the grid the widget sits.
    public let position: SlotPosition
    /// The slot's rectangle in screenshot pixels.
    public let rect: PixelRect

    /// The slot of a `family` widget at `position`, covering `rect`.
    public init(family: WidgetFamily, position: SlotPosition, rect: PixelRect) {
        self.family = family
        self.position = position
        self.rect = rect
    }

    /// `"FAMILY-POSITION"`, e.g. `medium-top`: the name `imgcache slice --all` gives its file.
    public var name: String { "\(family.rawValue)-\(position.rawValue)" }
}
