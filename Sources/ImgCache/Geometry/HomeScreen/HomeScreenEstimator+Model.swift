import Foundation

extension HomeScreenEstimator {
    /// One measured layout the models are fitted on: its entry, screen and grid in points.
    struct Sample: Sendable {
        let entry: HomeScreenTables.Entry
        let screen: Screen
        let grid: HomeScreenEstimateGrid

        init(_ entry: HomeScreenTables.Entry) {
            self.entry = entry
            screen = HomeScreenEstimator.screen(of: entry)
            grid = HomeScreenEstimateGrid(entry.grid, scale: Double(entry.scale))
        }
    }

    /// The small-icon grid as four straight-line fits, in points, on the screen's width W, height
    /// H, safe-area insets (top T, bottom B), home button and Dynamic Island:
    /// - small side = a + b W + c (home button): widgets grow with the width, and a home-button
    ///   phone's are smaller than a Face ID phone's of its width (148 against 155 pt at 375 pt);
    /// - column gap (medium width - 2 small) = a + b W + c (home button);
    /// - row gap (pitch - small) = a + b (H - T - B) + c (home button): the rows share out the
    ///   height left between the safe-area insets;
    /// - top row = a + b H + c T + d (Dynamic Island): the grid starts below the status bar, less
    ///   far below the Dynamic Island's taller safe area than below a notch.
    /// A feature that no fitted table varies (no Dynamic Island before iOS 16) gets a zero slope.
    /// Each line is then corrected by what it missed on the measured screens of the same kind (home
    /// button or Face ID) near the screen: their residuals weighted by exp(-(d / 20 pt)^2), d the
    /// distance between the screen sizes in points, over the sum of the weights plus 0.5, so that
    /// the correction fades where no measured screen is near.
    struct GridModel: Sendable {
        let small: [Double]
        let columnGap: [Double]
        let rowGap: [Double]
        let top: [Double]
        /// How many layouts it was fitted on.
        let count: Int
        /// The measured screens and what each line missed on them.
        private let residuals: [(screen: Screen, small: Double, columnGap: Double, rowGap: Double, top: Double)]

        /// Fitted on the small-icon layouts of `samples`.
        init(fittedOn samples: [Sample]) {
            let samples = samples.filter { $0.entry.icons == .small }
            let screens = samples.map(\.screen), grids = samples.map(\.grid)
            small = LeastSquares.fit(screens.map(Self.sizeFeatures), grids.map(\.small))
            columnGap = LeastSquares.fit(screens.map(Self.sizeFeatures), grids.map { $0.medium - 2 * $0.small })
            rowGap = LeastSquares.fit(screens.map(Self.rowFeatures), grids.map { $0.pitch - $0.small })
            top = LeastSquares.fit(screens.map(Self.topFeatures), grids.map(\.top))
            count = samples.count
            var residuals: [(screen: Screen, small: Double, columnGap: Double, rowGap: Double, top: Double)] = []
            for (screen, grid) in zip(screens, grids) {
                residuals.append((
                    screen, grid.small - Self.apply(small, Self.sizeFeatures(screen)),
                    grid.medium - 2 * grid.small - Self.apply(columnGap, Self.sizeFeatures(screen)),
                    grid.pitch - grid.small - Self.apply(rowGap, Self.rowFeatures(screen)),
                    grid.top - Self.apply(top, Self.topFeatures(screen))))
            }
            self.residuals = residuals
        }

        /// The correction of each line for `screen`: the residuals of the measured screens of its
        /// kind, weighted by nearness.
        private func corrections(_ screen: Screen) -> (small: Double, columnGap: Double, rowGap: Double, top: Double) {
            var sums = (weight: 0.5, small: 0.0, columnGap: 0.0, rowGap: 0.0, top: 0.0)
            for residual in residuals where residual.screen.hasHomeButton == screen.hasHomeButton {
                let distance = ((residual.screen.points.width - screen.points.width) * (residual.screen.points.width - screen.points.width)
                    + (residual.screen.points.height - screen.points.height) * (residual.screen.points.height - screen.points.height)).squareRoot()
                let weight = exp(-(distance / 20) * (distance / 20))
                sums.weight += weight
                sums.small += weight * residual.small
                sums.columnGap += weight * residual.columnGap
                sums.rowGap += weight * residual.rowGap
                sums.top += weight * residual.top
            }
            return (sums.small / sums.weight, sums.columnGap / sums.weight, sums.rowGap / sums.weight, sums.top / sums.weight)
        }

        /// The small-icon grid of `screen`: with `published` sizes only the top row is modelled
        /// (the pitch is the large height less the small side); else everything, the widget sizes
        /// rounded to whole points as every published size is.
        func grid(for screen: Screen, published: PublishedSizes?) -> HomeScreenEstimateGrid {
            let correction = corrections(screen)
            let top = Self.apply(self.top, Self.topFeatures(screen)) + correction.top
            let height = screen.points.height
            if let published {
                return HomeScreenEstimateGrid(
                    small: published.small, medium: published.medium, large: published.large,
                    pitch: published.large - published.small, top: top, screenHeight: height)
            }
            let small = (Self.apply(self.small, Self.sizeFeatures(screen)) + correction.small).rounded()
            let medium = (2 * small + Self.apply(columnGap, Self.sizeFeatures(screen)) + correction.columnGap).rounded()
            let pitch = small + Self.apply(rowGap, Self.rowFeatures(screen)) + correction.rowGap
            return HomeScreenEstimateGrid(
                small: small, medium: medium, large: (pitch + small).rounded(), pitch: pitch, top: top, screenHeight: height)
        }

        private static func home(_ screen: Screen) -> Double { screen.hasHomeButton ? 1 : 0 }
        private static func sizeFeatures(_ screen: Screen) -> [Double] { [1, screen.points.width, home(screen)] }
        private static func rowFeatures(_ screen: Screen) -> [Double] {
            [1, screen.points.height - screen.insets.top - screen.insets.bottom, home(screen)]
        }
        private static func topFeatures(_ screen: Screen) -> [Double] {
            [1, screen.points.height, screen.insets.top, screen.hasDynamicIsland ? 1 : 0]
        }
        private static func apply(_ coefficients: [Double], _ features: [Double]) -> Double {
            zip(coefficients, features).reduce(0) { $0 + $1.0 * $1.1 }
        }
    }

    /// iOS 18's large icons from the small-icon grid of the same screen, fitted on the screens
    /// measured with both: the small side and the medium width grow by their mean ratios (about
    /// 1.04), the top row moves by the mean shift (about 1.5 pt), and the spacing is square (the
    /// row gap equals the column gap, as on every measured large-icon screen), so the large widget
    /// is as tall as the medium one is wide.
    struct LargeIconModel: Sendable {
        let smallRatio: Double
        let mediumRatio: Double
        let topShift: Double
        /// How many screens it was fitted on.
        let count: Int

        /// Nil when no screen of `samples` was measured with both icon layouts.
        init?(fittedOn samples: [Sample]) {
            let pairs = samples.filter { $0.entry.icons == .large }.compactMap { large in
                HomeScreenEstimator.sibling(of: large.entry, in: samples).map { ($0.grid, large.grid) }
            }
            guard !pairs.isEmpty else { return nil }
            let count = Double(pairs.count)
            smallRatio = pairs.reduce(0) { $0 + $1.1.small / $1.0.small } / count
            mediumRatio = pairs.reduce(0) { $0 + $1.1.medium / $1.0.medium } / count
            topShift = pairs.reduce(0) { $0 + $1.1.top - $1.0.top } / count
            self.count = pairs.count
        }

        /// The large-icon grid of a screen whose small-icon grid is `small`.
        func grid(from small: HomeScreenEstimateGrid, screenHeight: Double) -> HomeScreenEstimateGrid {
            let side = small.small * smallRatio, medium = small.medium * mediumRatio
            return HomeScreenEstimateGrid(
                small: side, medium: medium, large: medium, pitch: medium - side, top: small.top + topShift, screenHeight: screenHeight)
        }
    }

    /// The small-icon sample of the same screenshot size and phone as `entry`, if `samples` has it.
    static func sibling(of entry: HomeScreenTables.Entry, in samples: [Sample]) -> Sample? {
        samples.first { $0.entry.icons == .small && $0.entry.screenshot == entry.screenshot && $0.entry.phone == entry.phone }
    }
}
