/// A rectangle in whole pixels: its top-left corner and its size, y growing downwards.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge, in pixels from the image's left.
    public var x: Int
    /// The top edge, in pixels from the image's top.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// The rectangle at `x`, `y` of `width` x `height` pixels (not checked: see `fits(in:)`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle's width and height.
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// One past the right edge.
    public var maxX: Int { x + width }
    /// One past the bottom edge.
    public var maxY: Int { y + height }

    /// True when the rectangle lies wholly inside an image of `size` and is not empty (checked
    /// without overflow, whatever the numbers).
    public func fits(in size: PixelSize) -> Bool {
        x >= 0 && y >= 0 && width > 0 && height > 0 && width <= size.width - x && height <= size.height - y
    }

    /// `"WxH+X+Y"`, as ImageMagick writes a crop geometry.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
