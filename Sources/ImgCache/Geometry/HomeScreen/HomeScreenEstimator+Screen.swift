extension HomeScreenEstimator {
    /// A phone screen as the grid model sees it: its size in points, UIKit scale, portrait
    /// safe-area insets and the widget sizes published for its size in points.
    struct Screen: Sendable {
        let points: PointSize
        let scale: Double
        let insets: SafeAreaInsets
        /// The small side, medium width and large height published for this size in points (the
        /// HIG table is keyed by points), if any.
        let published: PublishedSizes?

        /// A home button: no home indicator at the bottom of the safe area.
        var hasHomeButton: Bool { insets.bottom == 0 }
        /// The Dynamic Island phones' safe areas start 59-68 pt down, the notched phones' 44-50 pt.
        var hasDynamicIsland: Bool { !hasHomeButton && insets.top >= 55 }
    }

    /// Widget sizes published for a screen size, in points.
    struct PublishedSizes: Sendable {
        let small: Double
        let medium: Double
        let large: Double
        /// True when they were measured on the screenshot tables themselves (402x874, 440x956):
        /// the leave-one-out test must not use them when it hides those tables.
        let fromScreenshots: Bool
    }

    /// The Display Zoom screenshot sizes the tables measured, with the phone each was taken on (the
    /// tables' model comments: "13 mini, 12 mini in Display Zoom mode", "11 and XR in Display Zoom
    /// mode", "Home button Plus in Display Zoom mode").
    static let zoomedPhones: [PixelSize: String] = [
        PixelSize(width: 960, height: 2079): "iPhone 12 mini / 13 mini",
        PixelSize(width: 750, height: 1624): "iPhone XR / 11",
        PixelSize(width: 1125, height: 2001): "iPhone 6 Plus / 6s Plus / 7 Plus / 8 Plus",
    ]

    /// The screen a `screenshot`-sized capture of `device` shows: the device's own, or with
    /// Display Zoom fewer points at the same scale. Zoom scales a Face ID phone's insets with the
    /// points (the notch and the home indicator are hardware); a home-button phone's 20-pt status
    /// bar is drawn in the zoomed points.
    static func screen(of device: DeviceModel, screenshot: PixelSize) -> Screen {
        let points = PointSize(width: Double(screenshot.width) / device.scale, height: Double(screenshot.height) / device.scale)
        let zoom = device.hasHomeButton ? 1 : points.width / device.screen.width
        let insets = SafeAreaInsets(top: device.safeAreaInsets.top * zoom, bottom: device.safeAreaInsets.bottom * zoom)
        return Screen(points: points, scale: device.scale, insets: insets, published: published(for: points))
    }

    /// The screen of a portrait screenshot: `device`'s when given; else the catalogue iPhone whose
    /// screenshots have that size, or the phone a measured Display Zoom size was taken on.
    /// - Throws: `invalidArgument` when iPhones whose screens differ share the size (naming them),
    ///   or when no catalogue phone has it (a Display Zoom size needs the device).
    static func screen(screenshot: PixelSize, device: DeviceModel?) throws -> Screen {
        if let device { return screen(of: device, screenshot: screenshot) }
        let phones = DeviceCatalog.devices.filter { $0.kind == .iPhone && $0.screenPixels == screenshot }
        if let first = phones.first {
            let differ = phones.filter { $0.safeAreaInsets != first.safeAreaInsets || $0.scale != first.scale }
            guard differ.isEmpty else {
                throw ImgCacheError.invalidArgument(
                    "\(screenshot) screenshots come from phones whose screens differ: give --device (\(phones.map(\.name).joined(separator: " or ")))")
            }
            return screen(of: first, screenshot: screenshot)
        }
        if let name = zoomedPhones[screenshot], let phone = DeviceCatalog.devices.first(where: { $0.name == name }) {
            return screen(of: phone, screenshot: screenshot)
        }
        throw ImgCacheError.invalidArgument(
            "no table or catalogue phone has \(screenshot) screenshots: give --device (the phone it was taken on, e.g. with Display Zoom)")
    }

    /// The screen of a measured table entry.
    static func screen(of entry: HomeScreenTables.Entry) -> Screen {
        let name = entry.phone ?? zoomedPhones[entry.screenshot]
        let phone = DeviceCatalog.devices.first { device in
            device.kind == .iPhone && (name.map { device.name == $0 } ?? (device.screenPixels == entry.screenshot))
        }!
        return screen(of: phone, screenshot: entry.screenshot)
    }

    /// The home-screen widget sizes the catalogue publishes for a screen of `points`.
    static func published(for points: PointSize) -> PublishedSizes? {
        for device in DeviceCatalog.devices where device.kind == .iPhone && device.screen == points {
            guard let small = device.widgetSizes[.small], let medium = device.widgetSizes[.medium],
                  let large = device.widgetSizes[.large] else { continue }
            return PublishedSizes(small: small.width, medium: medium.width, large: large.height, fromScreenshots: device.widgetSizesFromScreenshots)
        }
        return nil
    }
}
