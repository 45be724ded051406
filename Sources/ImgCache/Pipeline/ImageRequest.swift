import Foundation

/// What to fetch and how to prepare it: the source URL, the region of it to keep, the target size,
/// how to fit it, which frames to keep and the output format of the cached result.
public struct ImageRequest: Sendable, Hashable {
    /// The format the prepared image is stored in.
    public enum OutputFormat: Sendable, Hashable {
        /// GIF when more than one frame is kept; otherwise JPEG (quality 85) when every pixel is
        /// opaque, PNG when any is translucent. The default.
        case automatic
        /// PNG (the first frame): RGB when opaque, RGBA with alpha.
        case png
        /// JPEG at a quality from 1 to 100 (the first frame); translucent pixels are flattened over white.
        case jpeg(quality: Int)
        /// GIF, even for a single frame.
        case gif
    }

    /// An http or https URL (or a file URL when the pipeline allows files).
    public var url: URL
    /// The size to prepare; nil keeps the source size. Default nil.
    public var target: ImageTarget?
    /// How the source is fitted to the target. Default `.fit`.
    public var contentMode: ContentMode
    /// Whether a smaller source is scaled up. Default false.
    public var allowsUpscaling: Bool
    /// Most frames kept from an animation; nil uses the pipeline's default. Default nil.
    public var maxFrames: Int?
    /// Bytes the kept frames may take; nil uses the pipeline's default. Default nil.
    public var frameBudgetBytes: Int?
    /// Format of the stored result. Default `.automatic`.
    public var outputFormat: OutputFormat
    /// The region of the source to prepare, in the pixels of the source as displayed (after EXIF
    /// orientation); nil prepares the whole source. Default nil. The target applies to the region;
    /// with no target the region is kept pixel for pixel (a wallpaper slice, say). A region that
    /// does not fit the source fails the request with `invalidArgument`. See
    /// `DecodingOptions.sourceRegion`.
    public var sourceRegion: PixelRect?
    /// What is done with the source's colour profile. Default `.convert` (to sRGB). `.keep` embeds
    /// the source's RGB profile in a JPEG or PNG variant; GIF cannot carry one.
    public var colorPolicy: ColorPolicy

    public init(
        url: URL, target: ImageTarget? = nil, contentMode: ContentMode = .fit, allowsUpscaling: Bool = false,
        maxFrames: Int? = nil, frameBudgetBytes: Int? = nil, outputFormat: OutputFormat = .automatic,
        sourceRegion: PixelRect? = nil, colorPolicy: ColorPolicy = .convert
    ) {
        self.url = url
        self.target = target
        self.contentMode = contentMode
        self.allowsUpscaling = allowsUpscaling
        self.maxFrames = maxFrames
        self.frameBudgetBytes = frameBudgetBytes
        self.outputFormat = outputFormat
        self.sourceRegion = sourceRegion
        self.colorPolicy = colorPolicy
    }
}

extension ImageRequest.OutputFormat {
    /// True for the formats that hold one frame (PNG, JPEG).
    var isStill: Bool {
        switch self {
        case .png, .jpeg: return true
        case .automatic, .gif: return false
        }
    }

    /// The canonical name used in cache keys: "auto", "png", "jpeg85", "gif".
    var keyComponent: String {
        switch self {
        case .automatic: return "auto"
        case .png: return "png"
        case .jpeg(let quality): return "jpeg\(quality)"
        case .gif: return "gif"
        }
    }
}
