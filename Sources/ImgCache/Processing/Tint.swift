/// A colour laid over every pixel of the processed frames (every frame of an animation): Widget-Blur's
/// light and dark overlays, or any colour, composited in 8-bit sRGB values as a browser's canvas
/// composites them (W3C Compositing and Blending Level 1), computed in float and rounded once.
///
/// Widget-Blur (github.com/mzeryck/Widget-Blur, `widget-blur.js`, `blurImage`) draws its overlays
/// after its blur:
/// - `.light`: white at alpha 0.4, source-over (`rgba(255,255,255,0.4)`);
/// - `.dark`: `rgba(55,55,55,0.2)` hard-light, then `rgba(55,55,55,1)` soft-light, then
///   `rgba(55,55,55,0.4)` source-over.
/// Widget-Blur also shifts saturation and lightness before its blur; a tint is the overlay only.
/// `.color(c)` lays `c` over the image, source-over. A layer over a translucent pixel is composited
/// as the canvas does (the result's alpha is `a_s + a_b x (1 - a_s)`), so the dark tint, whose
/// soft-light layer is opaque, leaves every pixel opaque.
///
/// Memory: one output frame per input frame, and a table of 3 x 256 bytes for opaque pixels.
public enum Tint: ImageProcessing, Hashable {
    /// Widget-Blur's light overlay: white at alpha 0.4.
    case light
    /// Widget-Blur's dark overlay: grey 55 hard-light, soft-light, then at alpha 0.4.
    case dark
    /// The colour laid over the image, source-over.
    case color(RGBAColor)

    /// `light`, `dark`, or a colour as `RGBAColor(hex:)` reads it (`RRGGBB` or `RRGGBBAA`); nil otherwise.
    public init?(name: String) {
        switch name.lowercased() {
        case "light": self = .light
        case "dark": self = .dark
        default:
            guard let color = RGBAColor(hex: name) else { return nil }
            self = .color(color)
        }
    }

    /// `tint(light)`, `tint(dark)` or `tint(rrggbbaa)`.
    public var identifier: String {
        switch self {
        case .light: "tint(light)"
        case .dark: "tint(dark)"
        case .color(let color): "tint(\(color))"
        }
    }

    public func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
        let overlay = Overlay(layers: layers)
        var result = image
        for index in result.frames.indices {
            result.frames[index].bitmap = overlay.apply(to: image.frames[index].bitmap)
        }
        return result
    }

    /// The layers drawn, bottom first.
    var layers: [OverlayLayer] {
        let grey = RGBAColor(red: 55, green: 55, blue: 55)
        switch self {
        case .light: return [OverlayLayer(blend: .normal, color: .white, alpha: 0.4)]
        case .dark:
            return [
                OverlayLayer(blend: .hardLight, color: grey, alpha: 0.2), OverlayLayer(blend: .softLight, color: grey, alpha: 1),
                OverlayLayer(blend: .normal, color: grey, alpha: 0.4),
            ]
        case .color(let color): return [OverlayLayer(blend: .normal, color: color, alpha: Double(color.alpha) / 255)]
        }
    }
}

/// One colour filling the frame with a blend mode, at an alpha.
struct OverlayLayer {
    enum Blend {
        case normal, hardLight, softLight

        /// The W3C blend function B(backdrop, source) of one channel, both in 0...1.
        func callAsFunction(_ backdrop: Double, _ source: Double) -> Double {
            switch self {
            case .normal: return source
            case .hardLight:
                return source <= 0.5 ? backdrop * 2 * source : backdrop + (2 * source - 1) - backdrop * (2 * source - 1)
            case .softLight:
                if source <= 0.5 { return backdrop - (1 - 2 * source) * backdrop * (1 - backdrop) }
                let d = backdrop <= 0.25 ? ((16 * backdrop - 12) * backdrop + 4) * backdrop : backdrop.squareRoot()
                return backdrop + (2 * source - 1) * (d - backdrop)
            }
        }
    }

    let blend: Blend
    let color: RGBAColor
    /// 0...1.
    let alpha: Double
}

/// Layers composited over pixels: opaque pixels through a table (their result depends on each
/// channel alone), translucent ones computed.
private struct Overlay {
    let layers: [OverlayLayer]
    /// Red, green and blue results of an opaque pixel, 256 entries each.
    let opaque: [UInt8]

    init(layers: [OverlayLayer]) {
        self.layers = layers
        var opaque = [UInt8](repeating: 0, count: 3 * 256)
        for value in 0..<256 {
            let channel = Double(value)
            let result = Self.composite(layers, SIMD3(channel, channel, channel) / 255, alpha: 1).color
            for lane in 0..<3 { opaque[lane * 256 + value] = Self.byte(result[lane]) }
        }
        self.opaque = opaque
    }

    func apply(to bitmap: Bitmap) -> Bitmap {
        var output = bitmap
        output.pixels.withUnsafeMutableBufferPointer { pixels in
            opaque.withUnsafeBufferPointer { table in
                for offset in stride(from: 0, to: pixels.count, by: 4) {
                    if pixels[offset + 3] == 255 {
                        for lane in 0..<3 { pixels[offset + lane] = table[lane * 256 + Int(pixels[offset + lane])] }
                        continue
                    }
                    let color = SIMD3(Double(pixels[offset]), Double(pixels[offset + 1]), Double(pixels[offset + 2])) / 255
                    let result = Self.composite(layers, color, alpha: Double(pixels[offset + 3]) / 255)
                    for lane in 0..<3 { pixels[offset + lane] = Self.byte(result.color[lane]) }
                    pixels[offset + 3] = Self.byte(result.alpha)
                }
            }
        }
        return output
    }

    /// A straight-alpha colour (0...1) after every layer: for each, the source colour blended with
    /// the backdrop where the backdrop is opaque, then source-over.
    static func composite(_ layers: [OverlayLayer], _ color: SIMD3<Double>, alpha: Double) -> (color: SIMD3<Double>, alpha: Double) {
        var (color, alpha) = (color, alpha)
        for layer in layers {
            let source = SIMD3(Double(layer.color.red), Double(layer.color.green), Double(layer.color.blue)) / 255
            var blended = SIMD3<Double>()
            for lane in 0..<3 { blended[lane] = (1 - alpha) * source[lane] + alpha * layer.blend(color[lane], source[lane]) }
            let result = layer.alpha + alpha * (1 - layer.alpha)
            let premultiplied = layer.alpha * blended + (1 - layer.alpha) * alpha * color
            color = result > 0 ? premultiplied / result : .zero
            alpha = result
        }
        return (color, alpha)
    }

    private static func byte(_ value: Double) -> UInt8 {
        UInt8((min(max(value, 0), 1) * 255).rounded())
    }
}
