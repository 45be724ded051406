/// The EXIF orientation of stored pixels (TIFF tag 0x0112): how to turn them to display them upright.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: turned 180 degrees.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: transposed (mirrored across the diagonal from the top left corner).
    case leftMirrored = 5
    /// 6: shown turned 90 degrees clockwise (a phone held upright).
    case right = 6
    /// 7: transversed (mirrored across the diagonal from the top right corner).
    case rightMirrored = 7
    /// 8: shown turned 90 degrees counterclockwise.
    case left = 8

    /// True for 5-8, where the displayed width is the stored height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The stored pixel at displayed position `(x, y)`, for a stored image of `stored` size.
    func storedPosition(x: Int, y: Int, stored: PixelSize) -> (x: Int, y: Int) {
        let w = stored.width, h = stored.height
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }

    /// The stored pixels of the displayed rectangle `rect` (non-empty), for a stored image of `stored` size.
    func storedRect(of rect: PixelRect, stored: PixelSize) -> PixelRect {
        let first = storedPosition(x: rect.x, y: rect.y, stored: stored)
        let last = storedPosition(x: rect.maxX - 1, y: rect.maxY - 1, stored: stored)
        let x = min(first.x, last.x), y = min(first.y, last.y)
        return PixelRect(x: x, y: y, width: max(first.x, last.x) - x + 1, height: max(first.y, last.y) - y + 1)
    }
}

extension Bitmap {
    /// The bitmap turned upright according to `orientation`.
    func oriented(_ orientation: ImageOrientation) -> Bitmap {
        guard orientation != .up else { return self }
        let displayed = orientation.swapsAxes ? size.transposed : size
        var result = Bitmap(size: displayed)
        pixels.withUnsafeBufferPointer { source in
            result.pixels.withUnsafeMutableBufferPointer { target in
                var index = 0
                for y in 0..<displayed.height {
                    for x in 0..<displayed.width {
                        let from = orientation.storedPosition(x: x, y: y, stored: size)
                        let offset = (from.y * size.width + from.x) * 4
                        target[index] = source[offset]
                        target[index + 1] = source[offset + 1]
                        target[index + 2] = source[offset + 2]
                        target[index + 3] = source[offset + 3]
                        index += 4
                    }
                }
            }
        }
        return result
    }
}
