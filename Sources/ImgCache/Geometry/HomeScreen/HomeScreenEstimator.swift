import Foundation

/// Estimates the home-screen layouts no table measured (a screenshot size no table has, the iPhone
/// Air, Display Zoom sizes, new phones, large icons where only small ones were measured) from a
/// model of the widget grid fitted on the measured tables of the same iOS era:
/// - small icons: the screen's published widget sizes when there are any (the columns then follow
///   from the centred medium widget and the row pitch from the large height), and the top row from
///   the model; else the whole grid from the model (`GridModel`);
/// - large icons: the measured small-icon layout of the same screenshot size (else its estimate),
///   scaled as on the screens measured with both (`LargeIconModel`).
/// Every estimate carries its expected error: the worst error the same method made when each
/// measured table was hidden and estimated from the others (`LeaveOneOut`). The fits and the
/// leave-one-out figures are computed once, on first use.
enum HomeScreenEstimator {
    /// How an estimate was made.
    enum Method: String, Sendable, CaseIterable {
        /// Small icons; published widget sizes, modelled top row.
        case rows
        /// Small icons; the whole grid modelled.
        case grid
        /// Large icons from the measured small-icon layout of the same screenshot size.
        case largeFromMeasured
        /// Large icons from the estimated small-icon layout.
        case largeFromEstimate
    }

    /// The models fitted on one measured table, and their leave-one-out figures.
    struct Fit: Sendable {
        let table: HomeScreenTables.Table
        let samples: [Sample]
        let grid: GridModel
        let large: LargeIconModel?
        let leaveOneOut: LeaveOneOut

        init(_ table: HomeScreenTables.Table) {
            self.table = table
            samples = table.entries.map(Sample.init)
            grid = GridModel(fittedOn: samples)
            large = LargeIconModel(fittedOn: samples)
            leaveOneOut = LeaveOneOut(samples)
        }

        /// The grid of `screen` with `icons`, given the measured small-icon grid of the same
        /// screenshot size if there is one, using the published widget sizes unless told not to.
        func estimate(_ screen: Screen, icons: IconLayout, measuredSmall: HomeScreenEstimateGrid?, usePublished: Bool = true)
            -> (grid: HomeScreenEstimateGrid, method: Method)?
        {
            let published = usePublished ? screen.published : nil
            let small = grid.grid(for: screen, published: published)
            guard icons == .large else { return (small, published == nil ? .grid : .rows) }
            guard let large else { return nil }
            let height = screen.points.height
            if let measuredSmall { return (large.grid(from: measuredSmall, screenHeight: height), .largeFromMeasured) }
            return (large.grid(from: small, screenHeight: height), .largeFromEstimate)
        }

        /// What `source` says of an estimate made by `method`.
        func description(_ method: Method) -> String {
            let base = "the grid model fitted on \(grid.count) small-icon layouts of \(table.source)"
            switch method {
            case .rows: return "estimated: published widget sizes, rows from \(base)"
            case .grid: return "estimated: side margins, gaps, top row and widget sizes from \(base)"
            case .largeFromMeasured:
                return "estimated: the measured small-icon layout scaled as on the \(large?.count ?? 0) screens measured with both icon layouts (\(table.source))"
            case .largeFromEstimate:
                return "estimated: small-icon grid from \(base), scaled to large icons as on the \(large?.count ?? 0) screens measured with both"
            }
        }
    }

    /// One fit per measured table, newest first.
    static let fits: [Fit] = HomeScreenTables.all.map(Fit.init)

    /// The estimated layout of a portrait screenshot (see `HomeScreenLayout.resolve`).
    static func estimate(screenshot: PixelSize, icons: IconLayout, iOS: Int, device: DeviceModel?) throws -> HomeScreenLayout {
        guard let fit = fits.first(where: { $0.table.iOS.contains(iOS) }) else {
            throw ImgCacheError.invalidArgument("iOS \(iOS) has no widgets on the home screen (iOS 14 and later)")
        }
        let screen = try screen(screenshot: screenshot, device: device)
        let measuredSmall = icons == .large
            ? try HomeScreenLayout.measured(screenshot: screenshot, icons: .small, iOS: iOS, device: device)
                .map { HomeScreenEstimateGrid($0.grid, scale: $0.scale) }
            : nil
        guard let (grid, method) = fit.estimate(screen, icons: icons, measuredSmall: measuredSmall).map({ ($0.grid, $0.method) }),
              let error = fit.leaveOneOut.expectedErrorPixels(method, homeButton: screen.hasHomeButton, scale: screen.scale) else {
            throw ImgCacheError.invalidArgument("large home-screen icons came with iOS 18: iOS \(iOS) has small icons only")
        }
        let pixels = grid.pixels(scale: screen.scale, screenshotWidth: screenshot.width)
        guard pixels.slots.allSatisfy({ $0.rect.fits(in: screenshot) }) else {
            throw ImgCacheError.invalidArgument("the estimated widget grid does not fit a \(screenshot) screenshot")
        }
        return HomeScreenLayout(
            screenshotSize: screenshot, scale: screen.scale, icons: icons, iOS: fit.table.iOS, measuredOn: fit.table.measuredOn,
            grid: pixels, source: fit.description(method), models: "", isEstimated: true, confirmed: false,
            provenance: "estimated from the iOS \(fit.table.measuredOn) tables", expectedErrorPixels: error, comparisons: [])
    }

    /// The layout of a portrait screenshot on an iOS version newer than every table (iOS 26 and
    /// later), always estimated from the newest table's layout of the same screenshot (measured or
    /// estimated, `base`):
    /// - a screen with reported iOS 26 numbers (`HomeScreenTables.iOS26Reports`): the grid they
    ///   give, expected error `HomeScreenVersionShift.gridRuleErrorPoints`;
    /// - any other: `base` moved by the mean shift of the reported phones from their iOS 18 layout
    ///   to their iOS 26 one, expected error `base`'s plus `HomeScreenVersionShift.transferPoints`
    ///   (what one phone's version shift missed on another across iOS 16 to 18);
    /// - after iOS 26 (no measurement published): the iOS 26 estimate, expected error plus
    ///   `HomeScreenVersionShift.driftPoints`.
    static func estimateAfterTheTables(screenshot: PixelSize, icons: IconLayout, iOS: Int, device: DeviceModel?) throws -> HomeScreenLayout {
        let newest = HomeScreenTables.all[0]
        let base = try HomeScreenLayout.resolve(screenshot: screenshot, icons: icons, iOS: newest.measuredOn, device: device)
        let scale = base.scale
        var grid: HomeScreenGrid, error: Int, source: String
        if let report = HomeScreenTables.iOS26Reports.first(where: { $0.screenshot == screenshot && $0.icons == icons }) {
            grid = report.grid
            error = HomeScreenEstimateGrid.pixels(HomeScreenVersionShift.gridRuleErrorPoints, scale: scale)
            source = "estimated: \(report.basis), columns centred and rows evenly spaced as on the measured tables"
        } else {
            guard let shift = iOS26Shift else {
                throw ImgCacheError.invalidArgument("no phone has iOS 26 numbers and an iOS \(newest.measuredOn) table")
            }
            grid = shift.apply(to: HomeScreenEstimateGrid(base.grid, scale: scale)).pixels(scale: scale, screenshotWidth: screenshot.width)
            error = (base.expectedErrorPixels ?? 0) + HomeScreenEstimateGrid.pixels(HomeScreenVersionShift.transferPoints, scale: scale)
            source = "estimated: the iOS \(newest.measuredOn) layout (\(base.isEstimated ? base.source : "measured: " + base.source)) "
                + "moved as iOS 26 moved the \(HomeScreenTables.iOS26Reports.map(\.models).joined(separator: ", "))"
        }
        if iOS > HomeScreenLayout.newestEstimatedIOS {
            error += HomeScreenEstimateGrid.pixels(HomeScreenVersionShift.driftPoints, scale: scale)
            source += "; no iOS \(iOS) measurement is published: the iOS 26 estimate carried over"
        }
        guard grid.slots.allSatisfy({ $0.rect.fits(in: screenshot) }) else {
            throw ImgCacheError.invalidArgument("the estimated iOS \(iOS) widget grid does not fit a \(screenshot) screenshot")
        }
        return HomeScreenLayout(
            screenshotSize: screenshot, scale: scale, icons: icons, iOS: iOS...iOS, measuredOn: newest.measuredOn, grid: grid,
            source: source, models: "", isEstimated: true, confirmed: false,
            provenance: "estimated: no iOS \(iOS) table is published", expectedErrorPixels: error, comparisons: [])
    }

    /// The mean shift, in points, of the phones with reported iOS 26 numbers from their measured
    /// iOS 18 layout to them; nil when none has both.
    static let iOS26Shift: HomeScreenVersionShift? = HomeScreenVersionShift(meanOf: HomeScreenTables.iOS26Reports.compactMap { report in
        HomeScreenTables.all[0].entries.first { $0.screenshot == report.screenshot && $0.icons == report.icons }.map { entry in
            HomeScreenVersionShift(from: HomeScreenEstimateGrid(entry.grid, scale: Double(entry.scale)),
                                   to: HomeScreenEstimateGrid(report.grid, scale: Double(report.scale)))
        }
    })

    /// The estimated size of a home-screen widget (small, medium, large) on an iPhone no source
    /// publishes it for, from the newest table's grid model; nil for other families and devices.
    static func widgetSize(_ family: WidgetFamily, of device: DeviceModel) -> (points: PointSize, estimate: SizeEstimate)? {
        guard device.kind == .iPhone, [.small, .medium, .large].contains(family), let fit = fits.first,
              let error = fit.leaveOneOut.expectedSizeErrorPixels(homeButton: device.hasHomeButton, scale: device.scale) else { return nil }
        let grid = fit.grid.grid(for: screen(of: device, screenshot: device.screenPixels), published: nil)
        let points: PointSize
        switch family {
        case .small: points = PointSize(width: grid.small, height: grid.small)
        case .medium: points = PointSize(width: grid.medium, height: grid.small)
        default: points = PointSize(width: grid.medium, height: grid.large)
        }
        let basis = "no published size: the home-screen grid model fitted on \(fit.grid.count) small-icon layouts of \(fit.table.source)"
        return (points, SizeEstimate(basis: basis, expectedErrorPixels: error))
    }
}
