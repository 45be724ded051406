import Foundation
import ImgCache

/// A wallpaper slice a serve URL asks for (`sl:FAMILY:POSITION[:ICONS[:IOS]]`): the pixels behind
/// one widget slot of a home-screen screenshot, whose rectangle follows from the screenshot's size
/// (`HomeScreenLayout`), which is known only once the original is fetched. The server reads the
/// size from the original's headers (`ImageDecoder.inspect`) and runs
/// `request(screenshotSize:)`.
public struct ServeSlice: Sendable, Hashable {
    /// The slot's widget family: small, medium or large.
    public let family: WidgetFamily
    /// Where the slot sits: one of `SlotPosition.positions(for: family)`.
    public let position: SlotPosition
    /// The screenshot's icon layout. Default `.small`.
    public let icons: IconLayout
    /// The iOS version on the screenshot; nil (the default) for the newest with numbers for the
    /// screenshot's size, as `imgcache slice` picks it (`HomeScreenLayout.memoised`).
    public let iOS: Int?
    /// The phone `wd:` names, if any: it picks the layout where two phones share a screenshot
    /// size (1125x2436), and a screenshot of another size is refused.
    public let device: DeviceModel?
    /// The request without its region: the target, if any, applies to the region; without one the
    /// region is kept pixel for pixel. PNG with the screenshot's colour profile kept, unless the
    /// URL said otherwise.
    public let request: ImageRequest

    /// A slice of the `family` slot at `position`; defaults as `imgcache slice`: small icons,
    /// the newest iOS with numbers for the screenshot, no device.
    public init(
        family: WidgetFamily, position: SlotPosition, icons: IconLayout = .small, iOS: Int? = nil, device: DeviceModel? = nil,
        request: ImageRequest
    ) {
        self.family = family
        self.position = position
        self.icons = icons
        self.iOS = iOS
        self.device = device
        self.request = request
    }

    /// The request for a screenshot of `screenshotSize` pixels (as displayed, after EXIF
    /// orientation): `request` with the slot's rectangle as its `sourceRegion`, from
    /// `HomeScreenLayout.memoised(screenshot:icons:iOS:device:)`, measured or estimated (that
    /// layout's `isEstimated` says which).
    /// - Throws: `invalidOption` naming `sl` for a screenshot no layout describes (landscape, a
    ///   size two phones share without `wd:`, not the `wd:` phone's size) or whose layout has no
    ///   such slot (the 4-inch SE has two rows).
    public func request(screenshotSize: PixelSize) throws(ServeURLError) -> ImageRequest {
        do {
            let layout = try HomeScreenLayout.memoised(screenshot: screenshotSize, icons: icons, iOS: iOS, device: device)
            var request = request
            request.sourceRegion = try layout.slot(family, at: position).rect
            return request
        } catch {
            let detail = ServeOptions.detail(of: error).replacingOccurrences(of: "give --device", with: "add wd:DEVICE:FAMILY")
            throw .invalidOption(name: "sl", detail: detail)
        }
    }
}
