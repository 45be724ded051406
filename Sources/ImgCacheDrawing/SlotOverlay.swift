import CCairo
import ImgCache

/// Draws the widget slots of a home-screen layout over its screenshot with cairo, to check their
/// alignment by eye. Each slot is outlined 2 pixels wide on its outermost pixels (no
/// antialiasing: the outline covers exactly `x`, `x + 1`, `maxX - 2` and `maxX - 1`, likewise in
/// y), small slots yellow, medium green and large pink, drawn large first so that smaller outlines
/// stay on top where edges meet. Each slot is labelled with its name and pixel origin ("medium-top
/// 87,261") in DejaVu Sans Bold, in its outline's colour on a dark box inside its top-left corner:
/// small labels on the first line, medium on the second, large on the third, so that slots sharing
/// a corner keep their labels apart. The text is sized from the smallest slot (a twentieth of its
/// side, 10 pixels at least). Every other pixel is the screenshot's.
public enum SlotOverlay {
    /// The outline and label colour of `family`, RGB: small (255, 214, 10), medium (48, 209, 88),
    /// large (255, 55, 95).
    public static func colour(for family: WidgetFamily) -> (red: UInt8, green: UInt8, blue: UInt8) {
        switch family {
        case .small: return (255, 214, 10)
        case .medium: return (48, 209, 88)
        default: return (255, 55, 95)
        }
    }

    /// `screenshot` with `slots` outlined and labelled, and `caption` (if any) on a dark box at its
    /// top-left corner. `encodingFailed` when cairo cannot draw (out of memory).
    public static func draw(_ slots: [WidgetSlot], caption: String? = nil, on screenshot: Bitmap) throws -> Bitmap {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(screenshot.width), Int32(screenshot.height))
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface))
        try copy(screenshot, into: surface)
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        try check(cairo_status(context))

        let ordered = slots.sorted { rank($0.family) < rank($1.family) }
        cairo_set_antialias(context, CAIRO_ANTIALIAS_NONE)
        cairo_set_line_width(context, 2)
        for slot in ordered {
            setColour(context, slot.family)
            let rect = slot.rect
            cairo_rectangle(context, Double(rect.x) + 1, Double(rect.y) + 1, Double(rect.width - 2), Double(rect.height - 2))
            cairo_stroke(context)
        }

        cairo_set_antialias(context, CAIRO_ANTIALIAS_DEFAULT)
        cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        let side = slots.map { min($0.rect.width, $0.rect.height) }.min() ?? 200
        let fontSize = max(10, Double(side) / 20)
        cairo_set_font_size(context, fontSize)
        for slot in ordered {
            let line = Double(2 - rank(slot.family))
            label(context, "\(slot.name) \(slot.rect.x),\(slot.rect.y)", x: Double(slot.rect.x) + 2,
                  y: Double(slot.rect.y) + 2 + line * fontSize * 1.6, fontSize: fontSize, colour: colour(for: slot.family))
        }
        if let caption { label(context, caption, x: 0, y: 0, fontSize: fontSize, colour: (255, 255, 255)) }
        try check(cairo_status(context))
        cairo_surface_flush(surface)
        return try bitmap(of: surface, size: screenshot.size)
    }

    /// Large 0, medium 1, small 2: the order outlines are drawn in.
    private static func rank(_ family: WidgetFamily) -> Int {
        switch family {
        case .small: return 2
        case .medium: return 1
        default: return 0
        }
    }

    private static func setColour(_ context: OpaquePointer?, _ family: WidgetFamily) {
        let (red, green, blue) = colour(for: family)
        cairo_set_source_rgb(context, Double(red) / 255, Double(green) / 255, Double(blue) / 255)
    }

    /// `text` in `colour` on a dark box whose top-left corner is at (`x`, `y`).
    private static func label(
        _ context: OpaquePointer?, _ text: String, x: Double, y: Double, fontSize: Double,
        colour: (red: UInt8, green: UInt8, blue: UInt8)
    ) {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        let padding = fontSize * 0.3
        cairo_set_source_rgba(context, 0, 0, 0, 0.65)
        cairo_rectangle(context, x, y, extents.x_advance + 2 * padding, fontSize * 1.6)
        cairo_fill(context)
        cairo_set_source_rgb(context, Double(colour.red) / 255, Double(colour.green) / 255, Double(colour.blue) / 255)
        cairo_move_to(context, x + padding, y + fontSize * 1.2)
        cairo_show_text(context, text)
    }

    /// Writes `bitmap` (straight RGBA) into the surface's pixels (premultiplied, native-endian ARGB).
    private static func copy(_ bitmap: Bitmap, into surface: OpaquePointer?) throws {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = try pixelData(of: surface)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<bitmap.height {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<bitmap.width {
                    let offset = (y * bitmap.width + x) * 4
                    let alpha = UInt32(pixels[offset + 3])
                    func premultiplied(_ value: UInt8) -> UInt32 { (UInt32(value) * alpha + 127) / 255 }
                    row[x] = alpha << 24 | premultiplied(pixels[offset]) << 16 | premultiplied(pixels[offset + 1]) << 8
                        | premultiplied(pixels[offset + 2])
                }
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    /// The surface's pixels as a straight-RGBA bitmap.
    private static func bitmap(of surface: OpaquePointer?, size: PixelSize) throws -> Bitmap {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = try pixelData(of: surface)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for y in 0..<size.height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<size.width {
                let pixel = row[x], alpha = pixel >> 24
                guard alpha > 0 else { continue }
                func straight(_ shift: UInt32) -> UInt8 { UInt8(min(255, ((pixel >> shift & 0xFF) * 255 + alpha / 2) / alpha)) }
                let offset = (y * size.width + x) * 4
                pixels[offset] = straight(16)
                pixels[offset + 1] = straight(8)
                pixels[offset + 2] = straight(0)
                pixels[offset + 3] = UInt8(alpha)
            }
        }
        return try Bitmap(size: size, pixels: pixels)
    }

    /// The image surface's pixels; `encodingFailed` when cairo has none to give (a surface in an
    /// error state, or of no pixels).
    private static func pixelData(of surface: OpaquePointer?) throws -> UnsafeMutablePointer<UInt8> {
        try check(cairo_surface_status(surface))
        guard let data = cairo_image_surface_get_data(surface) else {
            throw ImgCacheError.encodingFailed(format: .png, detail: "cairo cannot draw the overlay: the surface has no pixels")
        }
        return data
    }

    private static func check(_ status: cairo_status_t) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        let reason = cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
        throw ImgCacheError.encodingFailed(format: .png, detail: "cairo cannot draw the overlay: \(reason)")
    }
}
