/// The memory one entry of a widget's timeline may take, so that `entries` images (each with all
/// of its frames) fit the extension's memory with its reserve: `(limit - reserve) / entries`.
/// With `DecodingOptions.timeline` the frames kept are those that fit the entry's budget, and an
/// image whose one frame does not fit at its target size is refused
/// (`ImgCacheError.overTimelineBudget`) or, with `fitsImage`, made as large as fits.
public struct TimelineBudget: Sendable, Hashable {
    /// The extension whose memory the timeline shares. Default `.widgetKit`.
    public var memory: ExtensionMemory
    /// Entries of the timeline, each with an image like this one: 1 to 1,000.
    public var entries: Int
    /// Whether an image over the entry's budget is made smaller (the largest size of the same
    /// aspect, in whole pixels, that fits) rather than refused. Default false.
    public var fitsImage: Bool

    /// The budget of one of `entries` entries (1 to 1,000; a decode refuses another count with
    /// `invalidArgument`) in the memory of `memory` (default `.widgetKit`); `fitsImage` default
    /// false.
    public init(memory: ExtensionMemory = .widgetKit, entries: Int, fitsImage: Bool = false) {
        self.memory = memory
        self.entries = entries
        self.fitsImage = fitsImage
    }

    /// The entry counts accepted.
    public static let entryCounts = 1...1_000

    /// Bytes each entry's decoded frames may take: the extension's `imageBytes` / `entries`.
    public var bytesPerEntry: Int { memory.imageBytes / max(1, entries) }

    /// True when a frame of `size` (`width x height x 4` bytes) fits one entry.
    func fits(_ size: PixelSize) -> Bool {
        let (bytes, overflow) = size.area.multipliedReportingOverflow(by: 4)
        return !overflow && bytes <= bytesPerEntry
    }

    /// `size` when its frame fits an entry, else the largest size of its aspect that does: the
    /// widest whole width whose height (rounded down, at least 1) fits. Padding fits its target
    /// with this, as the padded frame is the target whatever the source.
    public func fitted(_ size: PixelSize) -> PixelSize {
        guard !fits(size) else { return size }
        let scale = (Double(bytesPerEntry) / (Double(size.area) * 4)).squareRoot()
        var width = min(size.width, Int((Double(size.width) * scale).rounded(.up)) + 1)
        while width > 1 && !fits(PixelSize(width: width, height: max(1, size.height * width / size.width))) { width -= 1 }
        return PixelSize(width: width, height: max(1, min(size.height * width / size.width, bytesPerEntry / 4 / width)))
    }

    /// `invalidArgument` for an entry count outside `entryCounts`.
    func validate() throws {
        guard Self.entryCounts.contains(entries) else {
            throw ImgCacheError.invalidArgument("timeline entries \(entries) is not in 1...\(Self.entryCounts.upperBound)")
        }
    }

    /// `;timeline=widgetkit:8`, and `:fit` with `fitsImage`, for the variant key.
    var variantKeyComponent: String { ";timeline=\(memory.rawValue):\(entries)\(fitsImage ? ":fit" : "")" }
}
