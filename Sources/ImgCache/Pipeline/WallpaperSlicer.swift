import Foundation
import Synchronization

/// Cuts a home-screen screenshot into the slices transparent widgets show: for each widget slot of
/// its `HomeScreenLayout`, the pixels behind the slot, exactly (a crop at whole pixels, copied with
/// no resampling). Every slice asked for at once comes from one decode of the screenshot, which
/// reads no row below the lowest slot.
///
/// To prepare slices through the cache instead, give `ImagePipeline` one `ImageRequest` per slot
/// with `sourceRegion` set to the slot's rectangle (see `request(for:ofScreenshotAt:format:)`):
/// requests for one URL share one download and one decode.
public struct WallpaperSlicer: Sendable {
    /// One slot's slice.
    public struct Slice: Sendable {
        /// The slot the slice was cut for.
        public let slot: WidgetSlot
        /// The slot's pixels, `slot.rect.size`, as the screenshot stores them.
        public let bitmap: Bitmap
        /// The screenshot's RGB colour profile (Display P3 on recent iPhones), to embed in the
        /// slice's file so it shows exactly as the wallpaper does; nil when it has none.
        public let iccProfile: [UInt8]?
    }

    /// The screenshot: a portrait home-screen screenshot in any format the decoders read (PNG,
    /// JPEG, WebP; the first frame of a GIF or an animated WebP).
    public let screenshot: ImageSource
    /// The layout whose slots are cut; its `screenshotSize` is the screenshot's.
    public let layout: HomeScreenLayout
    /// Pixel limits for decoding the screenshot. Default `DecodingLimits()`.
    public var limits = DecodingLimits()

    /// A slicer for `screenshot`, whose size is read from its headers (after EXIF orientation) and
    /// whose layout is `HomeScreenLayout.memoised(screenshot:icons:iOS:device:)` for that size.
    ///
    /// - Parameters: as for `HomeScreenLayout.resolve`: `icons` default `.small`, `iOS` default 18,
    ///   `device` (default nil) needed for 1125x2436 screenshots.
    /// - Throws: what `ImageDecoder.inspect` throws for bytes that are no image, and
    ///   `invalidArgument` for a screenshot no layout describes (landscape, say).
    public init(screenshot: ImageSource, icons: IconLayout = .small, iOS: Int = 18, device: DeviceModel? = nil) throws {
        let size = try ImageDecoder.inspect(screenshot, complete: false).size
        self.screenshot = screenshot
        layout = try HomeScreenLayout.memoised(screenshot: size, icons: icons, iOS: iOS, device: device)
    }

    /// A slicer cutting `screenshot` by `layout`; `invalidArgument` when the screenshot's size (read
    /// from its headers) is not the layout's.
    public init(screenshot: ImageSource, layout: HomeScreenLayout) throws {
        let size = try ImageDecoder.inspect(screenshot, complete: false).size
        guard size == layout.screenshotSize else {
            throw ImgCacheError.invalidArgument("the screenshot is \(size), the layout describes \(layout.screenshotSize) screenshots")
        }
        self.screenshot = screenshot
        self.layout = layout
    }

    /// The slice behind the `family` widget at `position`; `invalidArgument` when the layout has no
    /// such slot.
    public func slice(_ family: WidgetFamily, at position: SlotPosition) throws -> Bitmap {
        try slices([layout.slot(family, at: position)])[0].bitmap
    }

    /// The slices of `slots` (default: every slot of the layout), in that order, from one decode,
    /// each through `processors` in order (default none), which see the layout's scale
    /// (`ImageProcessingContext(scale: layout.scale, targetSize: the slot's size)`).
    /// - Throws: what decoding and the processors throw; `invalidArgument` for a processor's bad
    ///   identifier or result, as `ImageRequest.processors`.
    public func slices(_ slots: [WidgetSlot]? = nil, processors: [any ImageProcessing] = []) throws -> [Slice] {
        let slots = slots ?? layout.slots
        let chain = ProcessorChain(processors: processors)
        try chain.validate()
        // The screenshot's pixels and profile are kept: a converted slice could show a seam.
        let options = slots.map { DecodingOptions(sourceRegion: $0.rect, maxFrames: 1, limits: limits, colorPolicy: .keep) }
        let images = Mutex([Int: DecodedImage]())
        try ImageDecoder.decode(screenshot, targets: options) { index, image in
            images.withLock { $0[index] = image }
        }
        let decoded = images.withLock { $0 }
        return try slots.indices.map { index in
            // `ImageDecoder.decode(_:targets:)` hands over an image for every target, or throws.
            guard var image = decoded[index] else {
                throw ImgCacheError.invalidArgument("no slice was decoded for slot \(slots[index].name)")
            }
            if !processors.isEmpty {
                let context = ImageProcessingContext(scale: layout.scale, targetSize: slots[index].rect.size)
                image = try chain.apply(to: image, context: context, limits: limits)
            }
            return Slice(
                slot: slots[index], bitmap: image.frames[0].bitmap,
                iccProfile: image.info.colorProfile.embeddedBytes(under: .keep))
        }
    }

    /// The request that makes `slot`'s slice of the screenshot at `url` an `ImagePipeline` variant
    /// of it: the slot's rectangle as `sourceRegion`, no target, in `format` (default PNG, lossless),
    /// the screenshot's pixels and colour profile kept (`ColorPolicy.keep`), through `processors`
    /// (default none). The request has no target, so its processors see a scale of 1: give sizes
    /// in pixels (`GaussianBlur(sigma: points x layout.scale, unit: .pixels)`).
    public static func request(
        for slot: WidgetSlot, ofScreenshotAt url: URL, format: ImageRequest.OutputFormat = .png, processors: [any ImageProcessing] = []
    ) -> ImageRequest {
        ImageRequest(url: url, outputFormat: format, sourceRegion: slot.rect, colorPolicy: .keep, processors: processors)
    }
}
