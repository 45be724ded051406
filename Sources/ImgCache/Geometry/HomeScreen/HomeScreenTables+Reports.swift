extension HomeScreenTables {
    /// Home-screen numbers reported for an iOS version no table measured, and the grid that
    /// follows from them: the columns centred and the rows evenly spaced, as on the measured
    /// tables (within `HomeScreenVersionShift.gridRuleErrorPoints`).
    struct Report: Sendable {
        let iOS: Int
        let screenshot: PixelSize
        let scale: Int
        let icons: IconLayout
        let models: String
        /// Where the numbers come from, and what they are.
        let basis: String
        let grid: HomeScreenGrid

        /// The grid of a `screenshot`-wide screen from the small side, the left column and the
        /// top and bottom rows.
        init(iOS: Int, screenshot: PixelSize, scale: Int, icons: IconLayout, models: String, basis: String,
             small: Int, left: Int, top: Int, bottom: Int) {
            self.iOS = iOS
            self.screenshot = screenshot
            self.scale = scale
            self.icons = icons
            self.models = models
            self.basis = basis
            let medium = screenshot.width - 2 * left, middle = (top + bottom) / 2
            grid = HomeScreenGrid(
                small: small, medium: medium, large: middle + small - top, left: left, right: left + medium - small,
                top: top, middle: middle, bottom: bottom)
        }
    }

    /// The iOS 26 numbers known: the 16 Pro's, as the request for iOS 26 layouts (the project's
    /// issue 19) quotes "a published iOS 26 measurement". The publication itself was not found
    /// in the public transparent-widget scripts (Widget-Blur, no-background and its forks,
    /// Translucent have no iOS 26 table), so no layout built on it is called measured.
    static let iOS26Reports = [
        Report(iOS: 26, screenshot: PixelSize(width: 1206, height: 2622), scale: 3, icons: .small, models: "16 Pro",
               basis: "iOS 26 numbers reported for the 16 Pro (small 493, left 79, top 270, bottom 1474 px; the publication was not found)",
               small: 493, left: 79, top: 270, bottom: 1474),
    ]

    /// A measurement of the same screen and iOS version by another transparent-widget script,
    /// to compare a table with.
    struct Independent: Sendable {
        let source: String
        let iOS: Int
        let screenshot: PixelSize
        let icons: IconLayout
        let phone: String?
        let grid: HomeScreenGrid
    }

    /// Other scripts' tables, transcribed where they give positions (rows of zeros are left out):
    /// - iOS 18: ExperiBass/scriptable-no-background no-background.js @ee2a4d755b22 ("no-background.js
    ///   (ios 18+)"; only its 2556 rows have positions);
    /// - iOS 16: kasimok/Translucent Sources/Translucent/mappings.json @cbfa814bd800 (its 2796 and 2556
    ///   rows are the iPhone 14 Pro's, so iOS 16);
    /// - iOS 14: supermamon/scriptable-no-background no-background.js @1a4e761276bf (v1.5.0-1.6.0,
    ///   "iPhone 12 Pro Max compatibility", 2020).
    static let independent: [Independent] = {
        let experiBass = "ExperiBass/scriptable-no-background no-background.js @ee2a4d755b22"
        let translucent = "kasimok/Translucent Sources/Translucent/mappings.json @cbfa814bd800"
        let noBackground2020 = "supermamon/scriptable-no-background no-background.js @1a4e761276bf"
        func row(_ source: String, _ iOS: Int, _ width: Int, _ height: Int, _ icons: IconLayout, _ phone: String?,
                 _ numbers: [Int]) -> Independent {
            let bottom = numbers[7] == numbers[6] ? nil : numbers[7]
            return Independent(
                source: source, iOS: iOS, screenshot: PixelSize(width: width, height: height), icons: icons, phone: phone,
                grid: HomeScreenGrid(small: numbers[0], medium: numbers[1], large: numbers[2], left: numbers[3], right: numbers[4],
                                     top: numbers[5], middle: numbers[6], bottom: bottom))
        }
        let x = "iPhone X / XS / 11 Pro", mini = "iPhone 12 mini / 13 mini"
        return [
            row(experiBass, 18, 1179, 2556, .small, nil, [474, 1014, 1062, 81, 624, 240, 828, 1416]),
            row(experiBass, 18, 1179, 2556, .large, nil, [495, 1047, 1047, 66, 618, 243, 795, 1347]),
            row(translucent, 16, 1290, 2796, .small, nil, [510, 1092, 1146, 99, 681, 282, 918, 1554]),
            row(translucent, 16, 1179, 2556, .small, nil, [474, 1014, 1062, 82, 622, 270, 858, 1446]),
            row(translucent, 16, 1284, 2778, .small, nil, [510, 1092, 1146, 96, 678, 246, 882, 1518]),
            row(translucent, 16, 1170, 2532, .small, nil, [474, 1014, 1062, 78, 618, 231, 819, 1407]),
            row(translucent, 16, 1242, 2688, .small, nil, [507, 1080, 1137, 81, 654, 228, 858, 1488]),
            row(translucent, 16, 828, 1792, .small, nil, [338, 720, 758, 55, 437, 159, 579, 999]),
            row(translucent, 16, 1242, 2208, .small, nil, [471, 1044, 1071, 99, 672, 114, 696, 1278]),
            row(translucent, 16, 750, 1334, .small, nil, [296, 642, 648, 54, 400, 60, 412, 764]),
            row(translucent, 16, 640, 1136, .small, nil, [282, 584, 622, 30, 332, 59, 399, 399]),
            row(translucent, 16, 1125, 2436, .small, x, [465, 987, 1035, 69, 591, 213, 783, 1353]),
            row(translucent, 16, 1125, 2436, .small, mini, [465, 987, 1035, 69, 591, 231, 801, 1371]),
            row(noBackground2020, 14, 1170, 2532, .small, nil, [474, 1014, 1062, 78, 618, 231, 819, 1407]),
            row(noBackground2020, 14, 1242, 2688, .small, nil, [507, 1080, 1137, 81, 654, 228, 858, 1488]),
            row(noBackground2020, 14, 828, 1792, .small, nil, [338, 720, 758, 54, 436, 160, 580, 1000]),
            row(noBackground2020, 14, 1125, 2436, .small, x, [465, 987, 1035, 69, 591, 213, 783, 1353]),
            row(noBackground2020, 14, 1242, 2208, .small, nil, [471, 1044, 1071, 99, 672, 114, 696, 1278]),
            row(noBackground2020, 14, 750, 1334, .small, nil, [296, 642, 648, 54, 400, 60, 412, 764]),
            row(noBackground2020, 14, 640, 1136, .small, nil, [282, 584, 622, 30, 332, 59, 399, 399]),
        ]
    }()

    /// The largest distance, in pixels, between an edge of a slot of `a` and the same edge of the
    /// same slot of `b`; nil when `b` lacks one of `a`'s slots.
    static func largestEdgeDistance(_ a: HomeScreenGrid, _ b: HomeScreenGrid) -> Int? {
        let other = Dictionary(uniqueKeysWithValues: b.slots.map { ($0.name, $0.rect) })
        var worst = 0
        for slot in a.slots {
            guard let rect = other[slot.name] else { return nil }
            worst = max(worst, abs(rect.x - slot.rect.x), abs(rect.y - slot.rect.y),
                        abs(rect.maxX - slot.rect.maxX), abs(rect.maxY - slot.rect.maxY))
        }
        return worst
    }

    /// What the independent measurements of `entry`'s screen and of `table`'s measured version
    /// say: each source and its largest edge distance from the entry, in pixels.
    static func comparisons(of entry: Entry, in table: Table) -> [(source: String, pixels: Int)] {
        independent.filter {
            $0.iOS == table.measuredOn && $0.screenshot == entry.screenshot && $0.icons == entry.icons && $0.phone == entry.phone
        }.compactMap { other in largestEdgeDistance(entry.grid, other.grid).map { (other.source, $0) } }
    }
}
