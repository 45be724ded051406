/// The widget grid of one home-screen layout, in screenshot pixels, as the measured tables give it:
/// the small widget's side, the medium width (left edge of the left column to right edge of the
/// right one), the large height (top of the top row to bottom of the middle row), the x of the two
/// columns and the y of the three rows.
public struct HomeScreenGrid: Hashable, Sendable {
    /// The side of a small widget (square).
    public var small: Int
    /// The width of a medium or large widget: from the left column's left edge to the right
    /// column's right edge.
    public var medium: Int
    /// The height of a large widget: from the top of one row to the bottom of the row below it.
    public var large: Int
    /// The left column's x (medium and large widgets start there too).
    public var left: Int
    /// The right column's x.
    public var right: Int
    /// The top row's y.
    public var top: Int
    /// The middle row's y.
    public var middle: Int
    /// The bottom row's y; nil when the screen has two rows only.
    public var bottom: Int?

    /// A grid of these sizes and positions, in screenshot pixels, as a table gives them.
    public init(small: Int, medium: Int, large: Int, left: Int, right: Int, top: Int, middle: Int, bottom: Int?) {
        self.small = small
        self.medium = medium
        self.large = large
        self.left = left
        self.right = right
        self.top = top
        self.middle = middle
        self.bottom = bottom
    }

    /// Every slot of the grid: six small, three medium and two large on a three-row screen; four,
    /// two and one on a two-row one (a large widget at `bottom` starts at the middle row, so it
    /// needs a third row below).
    public var slots: [WidgetSlot] {
        var rows: [(SlotPosition, SlotPosition, SlotPosition, Int)] = [
            (.topLeft, .topRight, .top, top), (.middleLeft, .middleRight, .middle, middle),
        ]
        if let bottom { rows.append((.bottomLeft, .bottomRight, .bottom, bottom)) }
        var slots: [WidgetSlot] = []
        for (leftPosition, rightPosition, _, y) in rows {
            slots.append(WidgetSlot(family: .small, position: leftPosition, rect: PixelRect(x: left, y: y, width: small, height: small)))
            slots.append(WidgetSlot(family: .small, position: rightPosition, rect: PixelRect(x: right, y: y, width: small, height: small)))
        }
        for (_, _, position, y) in rows {
            slots.append(WidgetSlot(family: .medium, position: position, rect: PixelRect(x: left, y: y, width: medium, height: small)))
        }
        slots.append(WidgetSlot(family: .large, position: .top, rect: PixelRect(x: left, y: top, width: medium, height: large)))
        if bottom != nil {
            slots.append(WidgetSlot(family: .large, position: .bottom, rect: PixelRect(x: left, y: middle, width: medium, height: large)))
        }
        return slots
    }
}
