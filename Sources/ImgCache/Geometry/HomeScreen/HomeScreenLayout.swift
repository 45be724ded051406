/// The widget slots of one iPhone home screen, in the pixels of a portrait screenshot of it (render
/// pixels = points x UIKit scale): what a transparent widget needs to cut its slice of the
/// wallpaper. Measured layouts come from `HomeScreenTables`, chosen by screenshot size, icon layout
/// and iOS version; iOS 26 and later are estimated from the iOS 18 layouts (no iOS 26 table was
/// found: see `HomeScreenTables.iOS26Reports`).
public struct HomeScreenLayout: Hashable, Sendable {
    /// Another source's measurement of the same screen and iOS version, and how far its slots lie
    /// from this layout's (the largest edge distance, in pixels).
    public struct Comparison: Hashable, Sendable {
        /// The other source's citation (its script, version and function).
        public let source: String
        /// The largest distance between an edge of one of its slots and the same edge in this
        /// layout, in pixels.
        public let largestDifferencePixels: Int
    }

    /// Sources that disagree by more than this many pixels are reported: 3.
    public static let disagreementPixels = 3

    /// The newest iOS version the layouts cover (as estimates): 26. iOS 19-25 do not exist.
    public static let newestEstimatedIOS = 26

    /// Size of the portrait screenshot the rectangles refer to.
    public let screenshotSize: PixelSize
    /// UIKit scale of the screen: points = pixels / scale.
    public let scale: Double
    /// The icon layout the numbers are for: labelled small icons or large ones without labels.
    public let icons: IconLayout
    /// iOS versions the numbers describe (the table's, or the one version estimated).
    public let iOS: ClosedRange<Int>
    /// The iOS version the numbers were measured on; for an estimate, the version of the layout it
    /// started from.
    public let measuredOn: Int
    /// The widget grid, in screenshot pixels; `slots` places every widget on it.
    public let grid: HomeScreenGrid
    /// Where the numbers come from: the measured table's citation, or how they were estimated.
    public let source: String
    /// The models the numbers were measured on (empty for an estimate).
    public let models: String
    /// True when the numbers are estimated rather than measured.
    public let isEstimated: Bool
    /// True when the layout was measured and its source confirmed it for the version it is listed
    /// under (false for every estimate).
    public let confirmed: Bool
    /// The source's own words on which iOS version the row was measured on (for an estimate, what
    /// it started from).
    public let provenance: String
    /// Nil for a measured, confirmed layout. For an estimate, its expected error in pixels (from the
    /// leave-one-out test of the estimator over the measured tables, plus what carrying a layout to
    /// a new iOS version costs); for a measured row its source did not confirm for the version,
    /// the error of a row carried over from an older iOS (`HomeScreenVersionShift.driftPoints`).
    public let expectedErrorPixels: Int?
    /// The other sources' measurements of the same screen and iOS version (empty for an estimate).
    public let comparisons: [Comparison]

    /// The comparisons whose slots lie more than `disagreementPixels` from this layout's.
    public var disagreements: [Comparison] { comparisons.filter { $0.largestDifferencePixels > Self.disagreementPixels } }

    /// Every slot, small first, then medium, then large.
    public var slots: [WidgetSlot] { grid.slots }

    /// The slot of `family` at `position`; `invalidArgument` naming the positions there are when
    /// the layout has no such slot.
    public func slot(_ family: WidgetFamily, at position: SlotPosition) throws -> WidgetSlot {
        guard let slot = slots.first(where: { $0.family == family && $0.position == position }) else {
            let positions = slots.filter { $0.family == family }.map(\.position.rawValue)
            throw ImgCacheError.invalidArgument(positions.isEmpty
                ? "a home screen has no \(family.rawValue) widget slots"
                : "this layout has no \(family.rawValue) widget at \(position.rawValue) (it has \(positions.joined(separator: ", ")))")
        }
        return slot
    }

    /// The iOS version a layout of `screenshot` describes when none is given: the newest version
    /// with data for that screenshot size (26 for a size with iOS 26 numbers, else the newest
    /// table that measured it), or 26 for a size no table has (a newer phone or a Display Zoom
    /// size, estimated either way).
    public static func defaultIOS(screenshot: PixelSize) -> Int {
        if HomeScreenTables.iOS26Reports.contains(where: { $0.screenshot == screenshot }) { return 26 }
        return HomeScreenTables.all.first { $0.entries.contains { $0.screenshot == screenshot } }?.iOS.upperBound ?? newestEstimatedIOS
    }

    /// The measured layout for a portrait screenshot of `screenshot` pixels, or nil when no table
    /// has that size for `icons` and `iOS`.
    ///
    /// - Parameters:
    ///   - screenshot: the screenshot's size in pixels, portrait.
    ///   - icons: the icon layout. Default `.small` (labelled icons, the only layout before iOS 18).
    ///   - iOS: the iOS version: 18 uses the 2024 tables, 16-17 the 2022 ones, 14-15 the 2020 ones;
    ///     26 and later have no table (`resolve` estimates them). Default nil: `defaultIOS`.
    ///   - device: the phone, needed when two phone classes share the screenshot size (2436 px: X,
    ///     XS, 11 Pro against 12 and 13 mini); a device of another size is refused.
    /// - Throws: `invalidArgument` for a landscape screenshot, an iOS version before 14 (no widgets
    ///   on the home screen) or between 19 and 25 (none exists), a device whose screenshots have
    ///   another size, or an ambiguous size without `device` (the message names the candidates).
    public static func measured(
        screenshot: PixelSize, icons: IconLayout = .small, iOS: Int? = nil, device: DeviceModel? = nil
    ) throws -> HomeScreenLayout? {
        let iOS = iOS ?? defaultIOS(screenshot: screenshot)
        try checkArguments(screenshot: screenshot, iOS: iOS, device: device)
        guard let table = HomeScreenTables.all.first(where: { $0.iOS.contains(iOS) }) else { return nil }
        let candidates = table.entries.filter { $0.screenshot == screenshot && $0.icons == icons }
        let entry: HomeScreenTables.Entry?
        if candidates.count > 1 {
            let phones = candidates.compactMap(\.phone)
            guard let device else {
                throw ImgCacheError.invalidArgument(
                    "\(screenshot) screenshots come from two phone classes whose widgets sit differently: "
                        + "give --device (\(phones.joined(separator: " or ")))")
            }
            entry = candidates.first { $0.phone == device.name }
            guard entry != nil else {
                throw ImgCacheError.invalidArgument("\(device.name) is not one of \(phones.joined(separator: ", "))")
            }
        } else {
            entry = candidates.first
        }
        return entry.map { entry in
            let scale = Double(entry.scale), provenance = entry.provenance
            return HomeScreenLayout(
                screenshotSize: entry.screenshot, scale: scale, icons: icons, iOS: table.iOS, measuredOn: table.measuredOn,
                grid: entry.grid, source: table.source, models: entry.models, isEstimated: false,
                confirmed: provenance.confirmed, provenance: provenance.words,
                expectedErrorPixels: provenance.confirmed ? nil : HomeScreenEstimateGrid.pixels(HomeScreenVersionShift.driftPoints, scale: scale),
                comparisons: HomeScreenTables.comparisons(of: entry, in: table).map { Comparison(source: $0.source, largestDifferencePixels: $0.pixels) })
        }
    }

    /// The layout of a portrait screenshot of `screenshot` pixels: the measured one (see
    /// `measured`), else an estimate (`isEstimated` true) from the grid model fitted on the
    /// measured tables of the same iOS era. An estimate uses the widget sizes published for the
    /// screen when there are any (the columns follow from the centred medium widget, the row pitch
    /// from the large height) and models the rest from the screen's points, scale, safe-area
    /// insets and home button or Face ID; large icons scale the measured small-icon layout of the
    /// same size when there is one. Its `expectedErrorPixels` is the worst error of the same method
    /// when each measured table was hidden and estimated from the others; `source` says how it was
    /// made. iOS 26 and later are always estimated, from the iOS 18 layout moved as iOS 26 moved the
    /// phones it has numbers for (see `HomeScreenEstimator.estimateAfterTheTables`).
    ///
    /// Parameters and defaults as for `measured`.
    /// - Throws: as `measured`; and `invalidArgument` for large icons before iOS 18, for an
    ///   estimated grid that would not fit the screenshot, for a size that iPhones with different screens share (X against 12 mini) without `device`, and for a
    ///   size no table and no catalogue phone has without `device` (the scale and insets of a
    ///   Display Zoom screenshot come from its phone).
    public static func resolve(
        screenshot: PixelSize, icons: IconLayout = .small, iOS: Int? = nil, device: DeviceModel? = nil
    ) throws -> HomeScreenLayout {
        let iOS = iOS ?? defaultIOS(screenshot: screenshot)
        if let layout = try measured(screenshot: screenshot, icons: icons, iOS: iOS, device: device) { return layout }
        if iOS > HomeScreenTables.all[0].iOS.upperBound {
            return try HomeScreenEstimator.estimateAfterTheTables(screenshot: screenshot, icons: icons, iOS: iOS, device: device)
        }
        return try HomeScreenEstimator.estimate(screenshot: screenshot, icons: icons, iOS: iOS, device: device)
    }

    /// Refuses what no layout can describe.
    static func checkArguments(screenshot: PixelSize, iOS: Int, device: DeviceModel?) throws {
        guard screenshot.width > 0, screenshot.height > 0 else {
            throw ImgCacheError.invalidArgument("screenshot size \(screenshot) must be positive")
        }
        guard screenshot.height > screenshot.width else {
            throw ImgCacheError.invalidArgument("a \(screenshot) screenshot is landscape: home-screen widgets are laid out on portrait screenshots")
        }
        guard iOS >= 14 else { throw ImgCacheError.invalidArgument("iOS \(iOS) has no widgets on the home screen (iOS 14 and later)") }
        guard !(19...25).contains(iOS) else {
            throw ImgCacheError.invalidArgument("there is no iOS \(iOS): iOS 18 was followed by iOS 26")
        }
        if let device {
            guard device.kind == .iPhone else {
                throw ImgCacheError.invalidArgument("\(device.name) is an iPad: home-screen layouts are for iPhones")
            }
            // Display Zoom renders fewer points at the same scale: a smaller screenshot of the same shape.
            let native = device.screenPixels
            let sameShape = abs(Double(native.width * screenshot.height) / Double(native.height * screenshot.width) - 1) < 0.01
            guard sameShape && screenshot.width <= native.width else {
                throw ImgCacheError.invalidArgument(
                    "\(device.name) screenshots are \(native) (or smaller of that shape, with Display Zoom), not \(screenshot)")
            }
        }
    }
}
