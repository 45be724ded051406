import Foundation

extension HomeScreenEstimator {
    /// The estimator's accuracy on one table: each screenshot size and icon layout is hidden in
    /// turn (both 2436-pixel phone classes together), the models are fitted on the rest, and each
    /// hidden layout is estimated as `HomeScreenLayout.resolve` would estimate it. A layout's error
    /// is the largest distance, over all its slots, between an edge of the estimated rectangle and
    /// the same edge of the measured one; kept in points (pixels / scale), so that `x 3` gives 3x
    /// pixels whatever the table's scale.
    struct LeaveOneOut: Sendable {
        /// One hidden layout.
        struct Row: Sendable {
            let entry: HomeScreenTables.Entry
            /// Whether the phone has a home button (the expected errors are kept per kind).
            let homeButton: Bool
            /// How `resolve` estimates it: with the published sizes or the measured small-icon
            /// layout when the rest of the data has them.
            let method: Method
            let errorPoints: Double
            /// How the whole model does without them, as for a phone nothing is published for:
            /// small icons `.grid`, large icons `.largeFromEstimate`.
            let modelOnlyErrorPoints: Double
            /// Small icons only: the largest error of the small side, medium width and large
            /// height of the whole model, i.e. of an estimated widget size.
            let sizeErrorPoints: Double?
        }

        let rows: [Row]

        init(_ samples: [Sample]) {
            rows = samples.compactMap { sample in
                let rest = samples.filter { $0.entry.screenshot != sample.entry.screenshot || $0.entry.icons != sample.entry.icons }
                return Self.row(sample, fittedOn: rest)
            }
        }

        /// The hidden `sample` estimated from `rest`: nil when `rest` cannot estimate it (large
        /// icons with no screen measured with both layouts left).
        private static func row(_ sample: Sample, fittedOn rest: [Sample]) -> Row? {
            let grid = GridModel(fittedOn: rest)
            let large = LargeIconModel(fittedOn: rest)
            let screen = sample.screen
            let published = screen.published.flatMap { $0.fromScreenshots ? nil : $0 }
            let small = grid.grid(for: screen, published: published), modelSmall = grid.grid(for: screen, published: nil)
            let resolved: (HomeScreenEstimateGrid, Method), modelOnly: HomeScreenEstimateGrid
            if sample.entry.icons == .small {
                resolved = (small, published == nil ? .grid : .rows)
                modelOnly = modelSmall
            } else {
                guard let large else { return nil }
                let height = screen.points.height
                resolved = sibling(of: sample.entry, in: rest).map { (large.grid(from: $0.grid, screenHeight: height), .largeFromMeasured) }
                    ?? (large.grid(from: small, screenHeight: height), .largeFromEstimate)
                modelOnly = large.grid(from: modelSmall, screenHeight: height)
            }
            let sizeError = sample.entry.icons == .small
                ? [abs(modelSmall.small - sample.grid.small), abs(modelSmall.medium - sample.grid.medium), abs(modelSmall.large - sample.grid.large)].max()
                : nil
            return Row(
                entry: sample.entry, homeButton: screen.hasHomeButton, method: resolved.1, errorPoints: error(resolved.0, sample),
                modelOnlyErrorPoints: error(modelOnly, sample), sizeErrorPoints: sizeError)
        }

        /// The largest edge distance, in points, between the slots of `estimate` and the sample's.
        static func error(_ estimate: HomeScreenEstimateGrid, _ sample: Sample) -> Double {
            estimate.errorPoints(against: sample.entry)
        }

        /// The worst error, in points, of the layouts `resolve` estimates with `method` on phones
        /// of the kind `homeButton` says (of every kind when none of that kind was estimated so);
        /// for `.grid` and `.largeFromEstimate`, of the whole model on every layout of its icons.
        func worstPoints(_ method: Method, homeButton: Bool) -> Double? {
            let chosen: [(row: Row, error: Double)]
            switch method {
            case .rows, .largeFromMeasured: chosen = rows.filter { $0.method == method }.map { ($0, $0.errorPoints) }
            case .grid: chosen = rows.filter { $0.entry.icons == .small }.map { ($0, $0.modelOnlyErrorPoints) }
            case .largeFromEstimate: chosen = rows.filter { $0.entry.icons == .large }.map { ($0, $0.modelOnlyErrorPoints) }
            }
            let sameKind = chosen.filter { $0.row.homeButton == homeButton }
            return (sameKind.isEmpty ? chosen : sameKind).map(\.error).max()
        }

        /// The expected error of an estimate made by `method`, in pixels at `scale` (rounded up).
        func expectedErrorPixels(_ method: Method, homeButton: Bool, scale: Double) -> Int? {
            worstPoints(method, homeButton: homeButton).map { HomeScreenEstimateGrid.pixels($0, scale: scale) }
        }

        /// The expected error of an estimated widget size on a phone of the kind `homeButton`
        /// says, in pixels at `scale` (rounded up).
        func expectedSizeErrorPixels(homeButton: Bool, scale: Double) -> Int? {
            let sameKind = rows.filter { $0.homeButton == homeButton }.compactMap(\.sizeErrorPoints)
            return (sameKind.isEmpty ? rows.compactMap(\.sizeErrorPoints) : sameKind).max().map { HomeScreenEstimateGrid.pixels($0, scale: scale) }
        }
    }
}
