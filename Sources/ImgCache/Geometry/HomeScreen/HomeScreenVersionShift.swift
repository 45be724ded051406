import Foundation

/// How an iOS version moved the widget grid of a phone, in points, by the model the large-icon
/// estimate uses: the small side, the medium width and the row pitch scale by their ratios, the top
/// row moves by a shift; the large height follows the pitch and the side (it spans two rows).
///
/// The figures that bound what carrying a layout across versions costs come from the phones
/// measured on two consecutive iOS tables whose newer row its source confirmed (iOS 16 to iOS 18:
/// the 14 Pro Max class, the 14 Pro class, the 12/13 mini and the SE): the Dynamic Island phones'
/// rows rose 10 pt, the others did not move.
struct HomeScreenVersionShift: Sendable, Equatable {
    let smallRatio: Double
    let mediumRatio: Double
    let pitchRatio: Double
    let topShift: Double

    /// The shift that takes `old` to `new`.
    init(from old: HomeScreenEstimateGrid, to new: HomeScreenEstimateGrid) {
        smallRatio = new.small / old.small
        mediumRatio = new.medium / old.medium
        pitchRatio = new.pitch / old.pitch
        topShift = new.top - old.top
    }

    /// The mean of `shifts` (one per phone measured on both versions); nil when there are none.
    init?(meanOf shifts: [HomeScreenVersionShift]) {
        guard !shifts.isEmpty else { return nil }
        let count = Double(shifts.count)
        smallRatio = shifts.map(\.smallRatio).reduce(0, +) / count
        mediumRatio = shifts.map(\.mediumRatio).reduce(0, +) / count
        pitchRatio = shifts.map(\.pitchRatio).reduce(0, +) / count
        topShift = shifts.map(\.topShift).reduce(0, +) / count
    }

    /// `grid` moved by the shift (its number of rows kept).
    func apply(to grid: HomeScreenEstimateGrid) -> HomeScreenEstimateGrid {
        var moved = grid
        moved.small = grid.small * smallRatio
        moved.medium = grid.medium * mediumRatio
        moved.pitch = grid.pitch * pitchRatio
        moved.large = grid.large + (moved.pitch - grid.pitch) + (moved.small - grid.small)
        moved.top = grid.top + topShift
        return moved
    }

    /// One phone measured on two consecutive tables: its older row and its newer, confirmed one.
    struct Pair: Sendable {
        let older: HomeScreenTables.Entry
        let newer: HomeScreenTables.Entry
        var shift: HomeScreenVersionShift {
            HomeScreenVersionShift(from: HomeScreenEstimateGrid(older.grid, scale: Double(older.scale)),
                                   to: HomeScreenEstimateGrid(newer.grid, scale: Double(newer.scale)))
        }
    }

    /// Every such pair of the measured tables.
    static let pairs: [Pair] = zip(HomeScreenTables.all.dropFirst(), HomeScreenTables.all).flatMap { older, newer in
        newer.entries.filter(\.provenance.confirmed).compactMap { entry in
            older.entries.first { $0.screenshot == entry.screenshot && $0.icons == entry.icons && $0.phone == entry.phone }
                .map { Pair(older: $0, newer: entry) }
        }
    }

    /// The worst error, in points, of a row carried over unchanged from the older table to the
    /// newer one: the expected error of a row its source did not confirm for its version.
    static let driftPoints: Double = pairs.map { HomeScreenEstimateGrid($0.older.grid, scale: Double($0.older.scale)).errorPoints(against: $0.newer) }
        .max() ?? 0

    /// The worst error, in points, of one phone's version shift applied to another phone's older
    /// row: the expected error (on top of the base layout's) of a version estimated from the
    /// shift measured on other phones.
    static let transferPoints: Double = pairs.flatMap { measured in
        pairs.filter { $0.newer.screenshot != measured.newer.screenshot || $0.newer.phone != measured.newer.phone }.map { other in
            measured.shift.apply(to: HomeScreenEstimateGrid(other.older.grid, scale: Double(other.older.scale))).errorPoints(against: other.newer)
        }
    }.max() ?? 0

    /// The worst error, in points, of rebuilding a confirmed three-row layout of the newest table
    /// from its small side, left column and top and bottom rows as a `Report` does (centred
    /// columns, evenly spaced rows).
    static let gridRuleErrorPoints: Double = HomeScreenTables.all[0].entries.filter { $0.provenance.confirmed && $0.grid.bottom != nil }
        .map { entry in
            let grid = entry.grid
            let rebuilt = HomeScreenTables.Report(
                iOS: 0, screenshot: entry.screenshot, scale: entry.scale, icons: entry.icons, models: "", basis: "",
                small: grid.small, left: grid.left, top: grid.top, bottom: grid.bottom ?? grid.middle).grid
            return Double(HomeScreenTables.largestEdgeDistance(rebuilt, grid) ?? Int.max) / Double(entry.scale)
        }.max() ?? 0
}
