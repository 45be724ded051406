/// The processors of a request, in order, compared and hashed by their identifiers (so that an
/// `ImageRequest` stays `Hashable`).
struct ProcessorChain: Sendable, Hashable {
    var processors: [any ImageProcessing]

    /// The longest identifier accepted.
    static let maxIdentifierLength = 200

    static func == (left: ProcessorChain, right: ProcessorChain) -> Bool { left.identifiers == right.identifiers }
    func hash(into hasher: inout Hasher) { hasher.combine(identifiers) }

    var identifiers: [String] { processors.map(\.identifier) }

    /// Throws `invalidArgument` for an identifier that is empty, too long, or holds a character
    /// other than printable ASCII or one of the key's separators (`;`, `|`).
    func validate() throws {
        for identifier in identifiers {
            let printable = identifier.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) && $0 != ";" && $0 != "|" }
            guard !identifier.isEmpty, identifier.utf8.count <= Self.maxIdentifierLength, printable else {
                throw ImgCacheError.invalidArgument(
                    "processor identifier \(identifier.debugDescription) must be 1 to \(Self.maxIdentifierLength) printable "
                        + "ASCII characters without ';' or '|'")
            }
        }
    }

    /// What a variant key says of the chain run at `scale` pixels per point: nothing when it is
    /// empty (keys made before processors existed stay valid), else
    /// `;process=blur(sigma=4)|tint(dark)`, and `;scale=3` after it when the scale is not 1 (a
    /// processor measured in points makes other pixels at another scale, at the same pixel size).
    func variantKeyComponent(scale: Double) -> String {
        guard !processors.isEmpty else { return "" }
        return ";process=" + identifiers.joined(separator: "|") + (scale == 1 ? "" : ";scale=\(GaussianBlur.number(scale))")
    }

    /// `image` through every processor in order; throws what a processor throws, and
    /// `invalidArgument` naming the processor when it returns no frame or frames of different
    /// sizes, or `dimensionsOverLimit` when its output is over `limits.maxOutputPixels`.
    func apply(to image: DecodedImage, context: ImageProcessingContext, limits: DecodingLimits) throws -> DecodedImage {
        var image = image
        for processor in processors {
            image = try processor.process(image, context: context)
            guard let first = image.frames.first, image.frames.allSatisfy({ $0.bitmap.size == first.bitmap.size }) else {
                throw ImgCacheError.invalidArgument(
                    "processor \(processor.identifier) returned \(image.frames.isEmpty ? "no frame" : "frames of different sizes")")
            }
            try limits.checkOutput(first.bitmap.size)
        }
        return image
    }
}
