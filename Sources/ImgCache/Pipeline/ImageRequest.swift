import Foundation

/// What to fetch and how to prepare it: the source URL, the region of it to keep, the target size,
/// how to fit it, which frames to keep and the output format of the cached result; and how to
/// fetch it: headers, cache key, cache policy and priority.
public struct ImageRequest: Sendable, Hashable {
    /// Where a request may take the image from.
    public enum CachePolicy: String, Sendable, Hashable, CaseIterable {
        /// The caches while fresh, then the origin (revalidating a stale copy). The default.
        case useCache
        /// The origin first: the stored original is revalidated with its validators even while
        /// fresh (a 304 downloads nothing), and the variants are rendered again.
        case reload
        /// The caches only, fresh or stale, never the network: a miss fails with `notCached`.
        case cacheOnly
    }

    /// What a request writes to the caches (the disk, the Redis tier and any other tier).
    public enum StoragePolicy: String, Sendable, Hashable, CaseIterable {
        /// The original and the variants. The default.
        case all
        /// The variants only: the original is used for this request and never written (a feed
        /// service that renders each image once). A stored original is still used.
        case variantsOnly
        /// Nothing: the variant is returned in memory (`ImageResponse.unstoredData`).
        case none
    }

    /// How soon a request's download and decode start when others wait for the same slots:
    /// higher first, in arrival order within one priority.
    public enum Priority: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// Last of all.
        case veryLow
        /// After `normal`: `imgcache prefetch`'s priority, for background work.
        case low
        /// The default.
        case normal
        /// Before `normal`: a user waiting for the image.
        case high
        /// First of all.
        case veryHigh

        public static func < (left: Priority, right: Priority) -> Bool { left.rawValue < right.rawValue }
    }

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
        /// WebP, every kept frame (an animation stays animated, in full colour): lossy at a
        /// quality from 1 to 100 when every pixel is opaque, lossless when any is translucent (as
        /// `.automatic` picks PNG over JPEG); always lossy under `maxBytes`. Never chosen by
        /// `.automatic`.
        case webp(quality: Int)
        /// WebP, lossless whatever the pixels (fully transparent pixels become transparent black).
        case webpLossless
        /// AVIF, every kept frame (an animation becomes an image sequence), lossy at a quality from
        /// 1 to 100 as imgproxy means it (see `AVIFEncoder`), with an alpha plane when any pixel
        /// is translucent. Never chosen by `.automatic`.
        case avif(quality: Int)
    }

    /// An http or https URL (or a file URL when the pipeline allows files).
    public var url: URL
    /// The size to prepare; nil keeps the source size. Default nil.
    public var target: ImageTarget?
    /// How the source is fitted to the target. Default `.fit`.
    public var contentMode: ContentMode
    /// Which part of the source a crop keeps (`.crop`), or where a padded image sits in the
    /// target (`.pad`): the centre, an edge, a corner or a focal point; part of the variant's key.
    /// Default `.center`.
    public var gravity: CropGravity
    /// Whether a smaller source is scaled up. Default false.
    public var allowsUpscaling: Bool
    /// Most frames kept from an animation; nil uses the pipeline's default. Default nil.
    public var maxFrames: Int?
    /// Bytes the kept frames may take; nil uses the pipeline's default. Default nil.
    public var frameBudgetBytes: Int?
    /// Format of the stored result. Default `.automatic`.
    public var outputFormat: OutputFormat
    /// Whether one still is kept, the frame that represents an animation best, among the first
    /// `maxFrames` (`DecodingOptions.picksPoster`); part of the variant's key. Default false.
    public var picksPoster: Bool
    /// The widget timeline the image is one entry of (`DecodingOptions.timeline`): frames kept
    /// within the entry's budget, an image over it refused or, with `TimelineBudget.fitsImage`,
    /// made smaller (a `.pad` target before anything, as its frame is the target); part of the
    /// variant's key. Default nil.
    public var timeline: TimelineBudget?
    /// The region of the source to prepare, in the pixels of the source as displayed (after EXIF
    /// orientation); nil prepares the whole source. Default nil. The target applies to the region;
    /// with no target the region is kept pixel for pixel (a wallpaper slice, say). A region that
    /// does not fit the source fails the request with `invalidArgument`. See
    /// `DecodingOptions.sourceRegion`.
    public var sourceRegion: PixelRect?
    /// What is done with the source's colour profile. Default `.convert` (to sRGB). `.keep` embeds
    /// the source's RGB profile in a JPEG or PNG variant; GIF cannot carry one.
    public var colorPolicy: ColorPolicy
    /// The JPEG quality, 1 to 100, when `.automatic` picks JPEG; part of the variant's key.
    /// Default nil: 85. (`.jpeg(quality:)` carries its own.)
    public var quality: Int?
    /// The most bytes the stored result may take (imgproxy's `max_bytes`); part of the variant's
    /// key. JPEG, lossy WebP and AVIF are encoded at the largest quality, up to the request's, that
    /// fits (found by bisection on the prepared pixels); PNG, GIF and lossless WebP must fit as
    /// they are. What cannot fit fails with `ImgCacheError.outputOverByteLimit`. Default nil: no cap.
    public var maxBytes: Int?
    /// The colour `.pad` fills the target with and translucent pixels are composited over
    /// (`BackgroundFill`), after the processors; part of the variant's key. An opaque colour makes
    /// the result opaque, so that `.automatic` stores it as JPEG. Default nil: alpha is kept (the
    /// padding is transparent) and a JPEG is flattened over white.
    public var background: RGBAColor?
    /// Progressive JPEG, chroma subsampling and a PNG palette (see `EncoderControls`); the ones
    /// the written format uses are part of the variant's key. Default: none.
    public var encoderControls = EncoderControls()
    /// Steps run on the resampled frames before they are encoded, in order (a blur, a tint, the
    /// caller's own); each one's `identifier` is part of the variant's key, so the same URL with
    /// and without a processor makes two variants. Default []: the frames are encoded as decoded.
    public var processors: [any ImageProcessing] {
        get { processorChain.processors }
        set { processorChain.processors = newValue }
    }
    /// `processors`, compared by their identifiers.
    var processorChain: ProcessorChain
    /// Headers sent with the download, over `DataLoader.Configuration.headers` (a name given
    /// here replaces the configuration's). Not part of the cache key unless named in
    /// `keyHeaders`. `Authorization`, `Cookie` and `Proxy-Authorization` are not sent on a
    /// redirect to another origin. Default [:].
    public var headers: [String: String]
    /// Names of `headers` whose values are part of the cache key, for an origin that answers
    /// differently by a header (`Accept`, say). Default []: headers never change the key.
    public var keyHeaders: [String]
    /// The caller's own key for the image (Nuke's `imageId`), used instead of the URL for the
    /// original's key, and so for its variants' and its Redis values'; the download still uses
    /// `url`. Default nil: the URL after `ImagePipeline.Configuration.keyPolicy`.
    public var cacheKey: String?
    /// Where the image may come from. Default `.useCache`.
    public var cachePolicy: CachePolicy
    /// What is written to the caches. Default `.all`.
    public var storage: StoragePolicy
    /// How soon its download and decode start. Default `.normal` (`prefetch` callers pass `.low`).
    /// An `ImageTask` can change it while the request waits.
    public var priority: Priority

    /// A request for the image at `url`, with each other value at the default its property states
    /// unless given; the pipeline refuses a value out of its range with `invalidArgument` when the
    /// request starts.
    public init(
        url: URL, target: ImageTarget? = nil, contentMode: ContentMode = .fit, gravity: CropGravity = .center,
        allowsUpscaling: Bool = false,
        maxFrames: Int? = nil, frameBudgetBytes: Int? = nil, outputFormat: OutputFormat = .automatic,
        sourceRegion: PixelRect? = nil, colorPolicy: ColorPolicy = .convert, quality: Int? = nil, maxBytes: Int? = nil,
        background: RGBAColor? = nil, processors: [any ImageProcessing] = [], picksPoster: Bool = false,
        timeline: TimelineBudget? = nil,
        headers: [String: String] = [:], keyHeaders: [String] = [], cacheKey: String? = nil,
        cachePolicy: CachePolicy = .useCache, storage: StoragePolicy = .all, priority: Priority = .normal
    ) {
        self.url = url
        self.target = target
        self.contentMode = contentMode
        self.gravity = gravity
        self.allowsUpscaling = allowsUpscaling
        self.maxFrames = maxFrames
        self.frameBudgetBytes = frameBudgetBytes
        self.outputFormat = outputFormat
        self.picksPoster = picksPoster
        self.timeline = timeline
        self.sourceRegion = sourceRegion
        self.colorPolicy = colorPolicy
        self.quality = quality
        self.maxBytes = maxBytes
        self.background = background
        processorChain = ProcessorChain(processors: processors)
        self.headers = headers
        self.keyHeaders = keyHeaders
        self.cacheKey = cacheKey
        self.cachePolicy = cachePolicy
        self.storage = storage
        self.priority = priority
    }
}

extension ImageRequest {
    /// What runs on the resampled frames for a target of `pixels` (nil: none): `processors`, then
    /// `.pad`'s padding to the target and `background` (imgproxy's order: filters, extend,
    /// flatten). The pipeline runs these; a caller decoding with `ImageDecoder` itself can too.
    public func frameProcessors(targetPixels pixels: PixelSize?) -> [any ImageProcessing] {
        var steps = processors
        if contentMode == .pad, let pixels { steps.append(Padding(size: pixels, gravity: gravity)) }
        if let background { steps.append(BackgroundFill(color: background)) }
        return steps
    }
}

extension ImageRequest.OutputFormat {
    /// True for the formats that hold one frame (PNG, JPEG).
    var isStill: Bool {
        switch self {
        case .png, .jpeg: return true
        case .automatic, .gif, .webp, .webpLossless, .avif: return false
        }
    }

    /// The quality `.jpeg(quality:)`, `.webp(quality:)` or `.avif(quality:)` carries; nil for the other formats.
    var carriedQuality: Int? {
        switch self {
        case .jpeg(let quality), .webp(let quality), .avif(let quality): return quality
        case .automatic, .png, .gif, .webpLossless: return nil
        }
    }

    /// The canonical name used in cache keys: "auto" ("auto-q20" when `.automatic` uses a JPEG
    /// quality other than 85), "png", "jpeg85", "gif", "webp85", "webp-lossless", "avif63"; with a byte
    /// cap, "-max" and the cap after it ("jpeg85-max20000").
    func keyComponent(quality: Int, maxBytes: Int? = nil) -> String {
        let name: String
        switch self {
        case .automatic: name = quality == JPEGEncoder.defaultQuality ? "auto" : "auto-q\(quality)"
        case .png: name = "png"
        case .jpeg(let quality): name = "jpeg\(quality)"
        case .gif: name = "gif"
        case .webp(let quality): name = "webp\(quality)"
        case .webpLossless: name = "webp-lossless"
        case .avif(let quality): name = "avif\(quality)"
        }
        return name + (maxBytes.map { "-max\($0)" } ?? "")
    }
}
