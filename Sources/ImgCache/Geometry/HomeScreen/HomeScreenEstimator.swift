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
            screenshotSize: screenshot, scale: screen.scale, icons: icons, iOS: fit.table.iOS, grid: pixels,
            source: fit.description(method), models: "", expectedErrorPixels: error)
    }

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
