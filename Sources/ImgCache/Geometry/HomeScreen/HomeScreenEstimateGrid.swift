/// A widget grid in points, the form the home-screen estimator works in: the small widget's side,
/// the medium widget's width, the large widget's height, the row pitch (top of one row to the top
/// of the next), the top row's y and the number of rows (2 or 3). The columns are centred, so the
/// medium width gives the side margins.
struct HomeScreenEstimateGrid: Equatable, Sendable {
    var small: Double
    var medium: Double
    var large: Double
    var pitch: Double
    var top: Double
    var rows: Int

    /// A third row needs room for the dock below it: the measured three-row screens leave at least
    /// 121 pt under their bottom row, the 4-inch SE would leave 58 pt and has two rows.
    static let dockRoom = 90.0

    init(small: Double, medium: Double, large: Double, pitch: Double, top: Double, screenHeight: Double) {
        self.small = small
        self.medium = medium
        self.large = large
        self.pitch = pitch
        self.top = top
        self.rows = screenHeight - (top + 2 * pitch + small) >= Self.dockRoom ? 3 : 2
    }

    /// A measured grid in points.
    init(_ grid: HomeScreenGrid, scale: Double) {
        small = Double(grid.small) / scale
        medium = Double(grid.medium) / scale
        large = Double(grid.large) / scale
        pitch = Double(grid.middle - grid.top) / scale
        top = Double(grid.top) / scale
        rows = grid.bottom == nil ? 2 : 3
    }

    /// The grid in the pixels of a screenshot `screenshotWidth` wide at `scale`, each value rounded
    /// to the nearest pixel (halves away from zero); the columns centred.
    func pixels(scale: Double, screenshotWidth: Int) -> HomeScreenGrid {
        func round(_ value: Double) -> Int { Int(value.rounded(.toNearestOrAwayFromZero)) }
        let small = round(self.small * scale), medium = round(self.medium * scale)
        let left = round(Double(screenshotWidth - medium) / 2)
        return HomeScreenGrid(
            small: small, medium: medium, large: round(large * scale), left: left, right: left + medium - small,
            top: round(top * scale), middle: round((top + pitch) * scale), bottom: rows == 3 ? round((top + 2 * pitch) * scale) : nil)
    }

    /// The largest distance, in points, between an edge of a slot of the grid (in `entry`'s
    /// pixels) and the same edge of `entry`'s slot; infinite when the grid lacks one of its slots.
    func errorPoints(against entry: HomeScreenTables.Entry) -> Double {
        let scale = Double(entry.scale)
        return HomeScreenTables.largestEdgeDistance(entry.grid, pixels(scale: scale, screenshotWidth: entry.screenshot.width))
            .map { Double($0) / scale } ?? .infinity
    }

    /// `points` in pixels at `scale`, rounded up: how an error in points is stated in pixels.
    static func pixels(_ points: Double, scale: Double) -> Int { Int((points * scale - 1e-9).rounded(.up)) }
}
