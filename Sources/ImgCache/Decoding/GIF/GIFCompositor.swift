/// The canvas of a GIF animation, composited the way browsers do.
///
/// The canvas starts transparent black (the background colour is never painted, as in browsers).
/// Each frame draws its rows over the canvas, clipped to it; transparent pixels leave the canvas
/// as it was. After the frame is shown, `dispose()` applies its disposal: `.background` clears the
/// frame's rectangle to transparent, `.previous` restores the rectangle as it was before the frame
/// (the copy is taken only for frames that ask for it, and only of the visible rectangle).
struct GIFCompositor {
    let size: PixelSize
    /// RGBA8 pixels of the canvas, rows top to bottom.
    private(set) var pixels: [UInt8]
    /// The visible (clipped) rectangle of the current frame.
    private var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    private var disposal = GIFDisposal.none
    private var saved: [UInt8] = []

    /// A rectangle of canvas pixels.
    private struct Rect {
        var x: Int, y: Int, width: Int, height: Int
    }

    init(size: PixelSize) {
        self.size = size
        pixels = [UInt8](repeating: 0, count: size.area * 4)
    }

    /// Starts a frame at `header`'s position; keeps a copy of what it covers when `disposal` is `.previous`.
    mutating func begin(_ header: GIFReader.ImageHeader, disposal: GIFDisposal) {
        let right = min(header.left + header.width, size.width)
        let bottom = min(header.top + header.height, size.height)
        frame = Rect(x: header.left, y: header.top, width: max(0, right - header.left), height: max(0, bottom - header.top))
        self.disposal = disposal
        saved = disposal == .previous ? copy(frame) : []
    }

    /// True when some of the frame lands on the canvas.
    var frameIsVisible: Bool { frame.width > 0 && frame.height > 0 }

    /// True when frame row `row` lands on the canvas.
    func isVisible(row: Int) -> Bool { row >= 0 && row < frame.height }

    /// Draws frame row `row` (the frame's palette indices, left to right) through `palette`.
    mutating func draw(row: Int, indices: UnsafePointer<UInt8>, palette: GIFPalette) {
        guard isVisible(row: row), frame.width > 0 else { return }
        let start = ((frame.y + row) * size.width + frame.x) * 4
        let width = frame.width
        palette.entries.withUnsafeBufferPointer { colors in
            pixels.withUnsafeMutableBytes { canvas in
                let out = canvas.baseAddress! + start
                for x in 0..<width {
                    let color = colors[Int(indices[x])]
                    if color >> 24 != 0 {
                        out.storeBytes(of: color.littleEndian, toByteOffset: x * 4, as: UInt32.self)
                    }
                }
            }
        }
    }

    /// Applies the disposal of the frame last begun.
    mutating func dispose() {
        switch disposal {
        case .none:
            break
        case .background:
            let zeros = [UInt8](repeating: 0, count: frame.width * 4)
            paste(zeros, into: frame, rowStride: 0)
        case .previous:
            paste(saved, into: frame, rowStride: frame.width * 4)
            saved = []
        }
        disposal = .none
    }

    /// Pushes the canvas rows, top to bottom, into `resampler` until it has what it needs.
    func render(into resampler: RowResampler) {
        pixels.withUnsafeBufferPointer { canvas in
            for y in 0..<size.height where !resampler.isComplete {
                resampler.push(row: canvas.baseAddress! + y * size.width * 4)
            }
        }
    }

    private func copy(_ rect: Rect) -> [UInt8] {
        guard rect.width > 0, rect.height > 0 else { return [] }
        var result = [UInt8]()
        result.reserveCapacity(rect.width * rect.height * 4)
        for y in rect.y..<(rect.y + rect.height) {
            let start = (y * size.width + rect.x) * 4
            result.append(contentsOf: pixels[start..<(start + rect.width * 4)])
        }
        return result
    }

    /// Writes rows of `source` (each `rect.width x 4` bytes, `rowStride` apart) over `rect`.
    private mutating func paste(_ source: [UInt8], into rect: Rect, rowStride: Int) {
        guard rect.width > 0, rect.height > 0 else { return }
        let rowBytes = rect.width * 4
        source.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { canvas in
                for row in 0..<rect.height {
                    let target = canvas.baseAddress! + ((rect.y + row) * size.width + rect.x) * 4
                    target.copyMemory(from: source.baseAddress! + row * rowStride, byteCount: rowBytes)
                }
            }
        }
    }
}
