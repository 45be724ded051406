/// A size in whole pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size of `width` x `height` pixels (not checked: a target or limit that needs a positive
    /// size says so where it is used).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Number of pixels, `width x height`; `Int.max` when that overflows, and 0 when a side is not
    /// positive, so that checks against limits never trap.
    public var area: Int {
        guard width > 0, height > 0 else { return 0 }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// The same size with width and height swapped.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// `"WxH"`, the form the CLI reads and prints.
    public var description: String { "\(width)x\(height)" }

    /// Parses `"WxH"` (both positive integers), as given to `--size`.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              width > 0, height > 0 else { return nil }
        self.init(width: width, height: height)
    }
}
