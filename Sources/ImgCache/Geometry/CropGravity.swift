/// Which part of the image a crop (`ContentMode.crop`) keeps: the centre (the default), the middle
/// of an edge, a corner, or the part around a focal point. The window is placed, as far as the
/// image allows, so that this point of the image is at its centre: `north` keeps the top edge,
/// `southEast` the bottom right corner, `focus(x: 0.3, y: 0.2)` the part around a point 30% across
/// and 20% down. Edges and directions are those of the image as displayed (after its EXIF
/// orientation). As imgproxy's gravity (`ce`, `no`, `so`, `ea`, `we`, `noea`, ..., `fp:X:Y`, `sm`).
public enum CropGravity: Sendable, Hashable {
    /// Keeps the centre: the default.
    case center
    /// Keeps the middle of the top edge.
    case north
    /// Keeps the middle of the bottom edge.
    case south
    /// Keeps the middle of the right edge.
    case east
    /// Keeps the middle of the left edge.
    case west
    /// Keeps the top right corner.
    case northEast
    /// Keeps the top left corner.
    case northWest
    /// Keeps the bottom right corner.
    case southEast
    /// Keeps the bottom left corner.
    case southWest
    /// The point in fractions of the image's displayed width and height, 0...1 from the top left
    /// (of the source region, when the request has one).
    case focus(x: Double, y: Double)
    /// The window of most interest, measured on the decoded frames as libvips' `attention`
    /// smartcrop measures it (edges, skin tones, saturation): see `AttentionCrop`.
    case smart

    /// Every gravity but `focus`, with its name.
    public static let named: [(name: String, gravity: CropGravity)] = [
        ("center", .center), ("north", .north), ("south", .south), ("east", .east), ("west", .west),
        ("north-east", .northEast), ("north-west", .northWest), ("south-east", .southEast), ("south-west", .southWest),
        ("smart", .smart),
    ]

    /// The gravity called `name` (`center`, `north`, ..., `north-east`, ..., `smart`; see `named`).
    public init?(name: String) {
        guard let found = Self.named.first(where: { $0.name == name }) else { return nil }
        self = found.gravity
    }

    /// The point of the displayed image the window is centred on, in fractions of its size: an
    /// edge's middle or a corner for the compass gravities; the centre for `smart`, whose window
    /// is placed after decoding (a smart crop decodes as a fill, with no window to place).
    var point: (x: Double, y: Double) {
        switch self {
        case .center, .smart: return (0.5, 0.5)
        case .north: return (0.5, 0)
        case .south: return (0.5, 1)
        case .east: return (1, 0.5)
        case .west: return (0, 0.5)
        case .northEast: return (1, 0)
        case .northWest: return (0, 0)
        case .southEast: return (1, 1)
        case .southWest: return (0, 1)
        case .focus(let x, let y): return (x, y)
        }
    }

    /// Throws `invalidArgument` for a focal point outside 0...1 on either axis (or not a number).
    func validate() throws {
        let (x, y) = point
        guard (0...1).contains(x), (0...1).contains(y) else {
            throw ImgCacheError.invalidArgument("focal point \(x),\(y) is not within 0...1 on both axes")
        }
    }

    /// The same point of the image in the stored pixels' fractions, for a source whose pixels are
    /// stored in `orientation`.
    func stored(in orientation: ImageOrientation) -> (x: Double, y: Double) {
        let (u, v) = point
        switch orientation {
        case .up: return (u, v)
        case .upMirrored: return (1 - u, v)
        case .down: return (1 - u, 1 - v)
        case .downMirrored: return (u, 1 - v)
        case .leftMirrored: return (v, u)
        case .right: return (v, 1 - u)
        case .rightMirrored: return (1 - v, 1 - u)
        case .left: return (1 - v, u)
        }
    }

    /// Its name in keys and identifiers: `center`, `north`, ..., `focus:0.3,0.2`.
    var keyName: String {
        switch self {
        case .focus(let x, let y): return "focus:\(x),\(y)"
        default: return Self.named.first { $0.gravity == self }?.name ?? "center"
        }
    }

    /// What a variant key says of it: nothing for the centre (so keys made before gravities
    /// existed stay valid), else `;gravity=north` or `;gravity=focus:0.3,0.2`.
    var variantKeyComponent: String { self == .center ? "" : ";gravity=\(keyName)" }
}
