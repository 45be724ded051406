/// A Gaussian blur of standard deviation `sigma`, run on the resampled frames (every frame of an
/// animation), as imgproxy's `bl:SIGMA` and Pillow's `ImageFilter.GaussianBlur(radius)` make it.
///
/// The kernel is three passes of an extended box filter along each axis (Gwosdek et al., "Theoretical
/// foundations of Gaussian convolution by extended box filtering", 2011), whose variance is exactly
/// `sigma²`: the algorithm and box radius of Pillow's `GaussianBlur`, so the two agree to within
/// rounding (PSNR over 40 dB), and a cost per pixel that does not grow with sigma. Pixels outside
/// the frame repeat its edge pixels, as Pillow's do. The blur runs on premultiplied RGBA in float,
/// so that a translucent edge keeps its colour instead of darkening towards the transparent
/// pixels' black.
///
/// Memory: beside the input frames it allocates one output frame per input frame (RGBA8, which also
/// holds the horizontal result between the two axes, as straight alpha so that faint pixels keep
/// their colour) and two float rows of `max(width, height) + 2 x (box radius + 1)` pixels of
/// 16 bytes each, reused for every row, column and frame; nothing else.
public struct GaussianBlur: ImageProcessing, Hashable {
    /// What `sigma` is measured in.
    public enum Unit: String, Sendable, Hashable {
        /// Points of the target: pixels = sigma x `ImageProcessingContext.scale` (the screen's
        /// scale; 1 for a request without a target).
        case points
        /// Pixels of the processed image, whatever the scale (imgproxy's `bl`).
        case pixels
    }

    /// The largest sigma accepted in `unit`: 100 points, or 1600 pixels (100 points at the
    /// largest scale, 16). The cost of a blur does not grow with it.
    public static func maxSigma(_ unit: Unit) -> Double {
        unit == .points ? 100 : 100 * ImageTarget.scales.upperBound
    }

    /// The standard deviation, above 0 and at most `maxSigma(unit)`.
    public let sigma: Double
    /// Default `.points`.
    public let unit: Unit

    /// - Throws: `invalidArgument` for a sigma that is not finite, not above 0 or over `maxSigma(unit)`.
    public init(sigma: Double, unit: Unit = .points) throws {
        guard sigma.isFinite, sigma > 0, sigma <= Self.maxSigma(unit) else {
            throw ImgCacheError.invalidArgument(
                "blur sigma \(sigma) is not above 0 and at most \(Self.number(Self.maxSigma(unit))) \(unit.rawValue)")
        }
        self.sigma = sigma
        self.unit = unit
    }

    /// `blur(sigma=4)` in points, `blur(sigma=4px)` in pixels.
    public var identifier: String {
        "blur(sigma=\(Self.number(sigma))\(unit == .pixels ? "px" : ""))"
    }

    /// Sigma in pixels at `scale` pixels per point.
    public func pixelSigma(scale: Double) -> Double {
        unit == .pixels ? sigma : sigma * scale
    }

    public func process(_ image: DecodedImage, context: ImageProcessingContext) throws -> DecodedImage {
        let box = ExtendedBox(sigma: pixelSigma(scale: context.scale))
        var result = image
        guard let first = image.frames.first?.bitmap.size else { return result }
        var rows = BlurRows(length: max(first.width, first.height), box: box)
        for index in result.frames.indices {
            result.frames[index].bitmap = rows.blur(image.frames[index].bitmap)
        }
        return result
    }

    /// `value` as identifiers and messages write it: `4`, `2.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// One pass of Pillow's extended box filter (`_gaussian_blur_radius` in its BoxBlur.c): a box of
/// `2 x whole + 1` pixels of weight `inner` each, and one more pixel at either end of weight
/// `outer`, chosen so that three passes have variance sigma².
struct ExtendedBox: Equatable {
    static let passes = 3
    /// The whole part of the box's radius.
    let whole: Int
    let inner: Float
    let outer: Float

    init(sigma: Double) {
        let variance = sigma * sigma / Double(Self.passes)
        let length = (12 * variance + 1).squareRoot()
        let whole = ((length - 1) / 2).rounded(.down)
        let fraction = (2 * whole + 1) * (whole * (whole + 1) - 3 * variance) / (6 * (variance - (whole + 1) * (whole + 1)))
        let width = 2 * (whole + fraction) + 1
        self.whole = Int(whole)
        inner = Float(1 / width)
        outer = Float(fraction / width)
    }
}

/// The float rows a blur works in: `line` holds one row or column padded at both ends with copies
/// of its edge pixels, `scratch` a pass's output.
private struct BlurRows {
    let box: ExtendedBox
    /// Pixels of padding at each end: the box's reach, `whole + 1`.
    let pad: Int
    var line: [SIMD4<Float>]
    var scratch: [SIMD4<Float>]

    init(length: Int, box: ExtendedBox) {
        self.box = box
        pad = box.whole + 1
        line = [SIMD4<Float>](repeating: .zero, count: length + 2 * pad)
        scratch = [SIMD4<Float>](repeating: .zero, count: length)
    }

    /// `bitmap` blurred along its rows, then its columns.
    mutating func blur(_ bitmap: Bitmap) -> Bitmap {
        let (width, height) = (bitmap.width, bitmap.height)
        if line.count < max(width, height) + 2 * pad { self = BlurRows(length: max(width, height), box: box) }
        var output = Bitmap(size: bitmap.size)
        let (pad, box) = (pad, box)
        bitmap.pixels.withUnsafeBufferPointer { source in
            output.pixels.withUnsafeMutableBufferPointer { target in
                line.withUnsafeMutableBufferPointer { line in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        let (line, scratch) = (line.baseAddress!, scratch.baseAddress!)
                        let (source, target) = (source.baseAddress!, target.baseAddress!)
                        for y in 0..<height {
                            let row = y * width * 4
                            Self.load(source + row, stride: 4, count: width, into: line + pad)
                            Self.passes(line, scratch, count: width, pad: pad, box: box)
                            Self.store(line + pad, count: width, into: target + row, stride: 4)
                        }
                        for x in 0..<width {
                            Self.load(target + x * 4, stride: width * 4, count: height, into: line + pad)
                            Self.passes(line, scratch, count: height, pad: pad, box: box)
                            Self.store(line + pad, count: height, into: target + x * 4, stride: width * 4)
                        }
                    }
                }
            }
        }
        return output
    }

    /// `count` pixels of straight RGBA8, `stride` bytes apart, premultiplied into floats (0...255).
    @inline(__always)
    private static func load(_ pixels: UnsafePointer<UInt8>, stride: Int, count: Int, into line: UnsafeMutablePointer<SIMD4<Float>>) {
        for index in 0..<count {
            let pixel = pixels + index * stride
            let value = SIMD4<Float>(SIMD4(pixel[0], pixel[1], pixel[2], pixel[3]))
            let scale = value.w * (1 / 255)
            line[index] = value * SIMD4(scale, scale, scale, 1)
        }
    }

    /// `count` premultiplied float pixels written as straight RGBA8, rounded to nearest (half to
    /// even), `stride` bytes apart.
    @inline(__always)
    private static func store(_ line: UnsafePointer<SIMD4<Float>>, count: Int, into pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        for index in 0..<count {
            let value = line[index]
            let unpremultiply: Float = value.w >= 0.5 ? 255 / value.w : 0
            let straight = (value * SIMD4(unpremultiply, unpremultiply, unpremultiply, 1))
                .clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
            // Adding 1.5 x 2^23 leaves the rounded value in the low mantissa bits.
            let rounded = unsafeBitCast(straight + SIMD4<Float>(repeating: 12_582_912), to: SIMD4<UInt32>.self)
            let bytes = SIMD4<UInt8>(truncatingIfNeeded: rounded)
            let pixel = pixels + index * stride
            (pixel[0], pixel[1], pixel[2], pixel[3]) = (bytes.x, bytes.y, bytes.z, bytes.w)
        }
    }

    /// The three box passes over `line[pad..<pad + count]`, in place (`scratch` holds each pass's
    /// output before it is copied back). Before each pass the padding takes copies of the edge
    /// pixels, so that the box reads the edge pixel wherever it reaches past the ends.
    @inline(__always)
    private static func passes(
        _ line: UnsafeMutablePointer<SIMD4<Float>>, _ scratch: UnsafeMutablePointer<SIMD4<Float>>, count: Int, pad: Int,
        box: ExtendedBox
    ) {
        let whole = box.whole
        let (inner, outer) = (SIMD4(repeating: box.inner), SIMD4(repeating: box.outer))
        for _ in 0..<ExtendedBox.passes {
            let (first, last) = (line[pad], line[pad + count - 1])
            for index in 0..<pad {
                line[index] = first
                line[pad + count + index] = last
            }
            var sum = SIMD4<Float>.zero
            for index in (pad - whole)...(pad + whole) { sum += line[index] }
            for index in 0..<count {
                let centre = pad + index
                let far = line[centre + whole + 1]
                scratch[index] = sum * inner + (line[centre - whole - 1] + far) * outer
                sum += far - line[centre - whole]
            }
            (line + pad).update(from: scratch, count: count)
        }
    }
}
