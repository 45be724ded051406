/// The measured home-screen tables: for each portrait screenshot size (and, from iOS 18, icon
/// layout), the widget grid in screenshot pixels, transcribed from the public scripts that cut
/// transparent-widget backgrounds (the numbers as ../shared/devices/positions.json quotes them).
/// A table with a bottom row equal to its middle row (the 4-inch SE) has two rows only.
///
/// 2436-pixel screenshots come from two phone classes whose rows differ (X/XS/11 Pro and 12/13
/// mini): their entries name the catalogue's device. The 2024 table's entries without an icon
/// layout predate iOS 18's large icons and are the small-icon layout.
enum HomeScreenTables {
    /// One source's measurements and the iOS versions they describe: `iOS` is the versions the
    /// table is chosen for, `measuredOn` the one its source measured on.
    struct Table: Sendable {
        let source: String
        let iOS: ClosedRange<Int>
        let measuredOn: Int
        let entries: [Entry]
    }

    /// Whether a row's source confirmed it for the version its table is listed under, in the
    /// source's own words (or, where the source names no version, what dates the row).
    struct Provenance: Sendable, Hashable {
        let confirmed: Bool
        let words: String
    }

    /// One measured layout.
    struct Entry: Sendable {
        let screenshot: PixelSize
        let scale: Int
        let icons: IconLayout
        /// The catalogue name of the phone class when the screenshot size alone does not tell it.
        let phone: String?
        /// The models the source names.
        let models: String
        let grid: HomeScreenGrid
        let provenance: Provenance
    }

    /// Every table, newest first.
    static let all = [widgetBlur2024, noBackground2022, transparentWidget2020]

    private static func grid(
        _ small: Int, _ medium: Int, _ large: Int, left: Int, right: Int, top: Int, middle: Int, bottom: Int?
    ) -> HomeScreenGrid {
        HomeScreenGrid(small: small, medium: medium, large: large, left: left, right: right, top: top, middle: middle, bottom: bottom)
    }

    /// Widget-Blur's phoneSizes() sorts its rows under three headers (quoted): the rows under
    /// "Supported devices" are confirmed for iOS 18, except the 2436 X/XS/11 Pro row (the mini's
    /// comment says only it was confirmed); "In-limbo devices" and "Older devices" are not.
    private static let widgetBlurSupported = Provenance(
        confirmed: true, words: "Supported devices: The following device measurements have been confirmed in iOS 18.")
    private static let widgetBlurOnlyMini = Provenance(
        confirmed: false, words: "Note that only the mini has been confirmed for iOS 18")
    private static let widgetBlurInLimbo = Provenance(
        confirmed: false,
        words: "In-limbo devices: The following device measurements were confirmed in older versions of iOS. Please comment if you can confirm these for iOS 18.")
    private static let widgetBlurOlder = Provenance(
        confirmed: false, words: "Older devices: The following devices cannot be updated to iOS 18 or later.")
    /// no-background names no iOS version; its v1.8.0 changelog line added the two phones that
    /// shipped with iOS 16, and the other rows come from its earlier versions.
    private static let noBackgroundIOS16 = Provenance(
        confirmed: true, words: "v1.8.0 - (new) support for iPhone 14 Pro/Pro Max. (phones that shipped with iOS 16)")
    private static let noBackgroundEarlier = Provenance(
        confirmed: false, words: "no version named: the row predates v1.8.0, the version that added the iOS 16 phones")
    /// The 2020 script names no version either; it dates from iOS 14, the first iOS with home-screen widgets.
    private static let transparentWidgetIOS14 = Provenance(
        confirmed: true, words: "no version named: committed 2020-11-13, when iOS 14 was the only iOS with home-screen widgets")

    /// Widget-Blur (2024, iOS 18): mzeryck/Widget-Blur widget-blur.js @bd85184a3b93 (2024-10-04), phoneSizes().
    static let widgetBlur2024 = Table(
        source: "mzeryck/Widget-Blur widget-blur.js @bd85184a3b93 (2024-10-04), phoneSizes()", iOS: 18...18, measuredOn: 18, entries: [
        Entry(screenshot: PixelSize(width: 1320, height: 2868), scale: 3, icons: .small, phone: nil,
              models: "16 Pro Max", grid: grid(510, 1092, 1146, left: 114, right: 696, top: 276, middle: 912, bottom: 1548), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 1320, height: 2868), scale: 3, icons: .large, phone: nil,
              models: "16 Pro Max", grid: grid(530, 1138, 1136, left: 91, right: 699, top: 276, middle: 882, bottom: 1488), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 1290, height: 2796), scale: 3, icons: .small, phone: nil,
              models: "16 Plus, 15 Plus, 15 Pro Max, 14 Pro Max", grid: grid(510, 1092, 1146, left: 98, right: 681, top: 252, middle: 888, bottom: 1524), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 1290, height: 2796), scale: 3, icons: .large, phone: nil,
              models: "16 Plus, 15 Plus, 15 Pro Max, 14 Pro Max", grid: grid(530, 1139, 1136, left: 75, right: 684, top: 252, middle: 858, bottom: 1464), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 1206, height: 2622), scale: 3, icons: .small, phone: nil,
              models: "16 Pro", grid: grid(486, 1032, 1098, left: 87, right: 633, top: 261, middle: 872, bottom: 1485), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 1206, height: 2622), scale: 3, icons: .large, phone: nil,
              models: "16 Pro", grid: grid(495, 1037, 1035, left: 84, right: 626, top: 270, middle: 810, bottom: 1350), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 1179, height: 2556), scale: 3, icons: .small, phone: nil,
              models: "16, 15, 15 Pro, 14 Pro", grid: grid(474, 1017, 1062, left: 81, right: 624, top: 240, middle: 828, bottom: 1416), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 1179, height: 2556), scale: 3, icons: .large, phone: nil,
              models: "16, 15, 15 Pro, 14 Pro", grid: grid(495, 1047, 1047, left: 66, right: 618, top: 243, middle: 795, bottom: 1347), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 1125, height: 2436), scale: 3, icons: .small, phone: "iPhone X / XS / 11 Pro",
              models: "X, XS, 11 Pro", grid: grid(465, 987, 1035, left: 69, right: 591, top: 213, middle: 783, bottom: 1353), provenance: widgetBlurOnlyMini),
        Entry(screenshot: PixelSize(width: 1125, height: 2436), scale: 3, icons: .small, phone: "iPhone 12 mini / 13 mini",
              models: "12 mini, 13 mini", grid: grid(465, 987, 1035, left: 69, right: 591, top: 231, middle: 801, bottom: 1371), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 960, height: 2079), scale: 3, icons: .small, phone: nil,
              models: "13 mini, 12 mini in Display Zoom mode", grid: grid(423, 875, 933, left: 42, right: 494, top: 186, middle: 696, bottom: 1206), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 750, height: 1334), scale: 2, icons: .small, phone: nil,
              models: "SE3, SE2", grid: grid(296, 642, 648, left: 54, right: 400, top: 60, middle: 412, bottom: 764), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 750, height: 1334), scale: 2, icons: .large, phone: nil,
              models: "SE3, SE2", grid: grid(309, 667, 667, left: 41, right: 399, top: 67, middle: 425, bottom: 783), provenance: widgetBlurSupported),
        Entry(screenshot: PixelSize(width: 1284, height: 2778), scale: 3, icons: .small, phone: nil,
              models: "14 Plus, 13 Pro Max, 12 Pro Max", grid: grid(510, 1092, 1146, left: 96, right: 678, top: 246, middle: 882, bottom: 1518), provenance: widgetBlurInLimbo),
        Entry(screenshot: PixelSize(width: 1242, height: 2688), scale: 3, icons: .small, phone: nil,
              models: "11 Pro Max, XS Max", grid: grid(507, 1080, 1137, left: 81, right: 654, top: 228, middle: 858, bottom: 1488), provenance: widgetBlurInLimbo),
        Entry(screenshot: PixelSize(width: 1170, height: 2532), scale: 3, icons: .small, phone: nil,
              models: "14, 13, 13 Pro, 12, 12 Pro", grid: grid(474, 1014, 1062, left: 78, right: 618, top: 231, middle: 819, bottom: 1407), provenance: widgetBlurInLimbo),
        Entry(screenshot: PixelSize(width: 828, height: 1792), scale: 2, icons: .small, phone: nil,
              models: "11, XR", grid: grid(338, 720, 758, left: 55, right: 437, top: 159, middle: 579, bottom: 999), provenance: widgetBlurInLimbo),
        Entry(screenshot: PixelSize(width: 750, height: 1624), scale: 2, icons: .small, phone: nil,
              models: "11 and XR in Display Zoom mode", grid: grid(310, 658, 690, left: 46, right: 394, top: 142, middle: 522, bottom: 902), provenance: widgetBlurInLimbo),
        Entry(screenshot: PixelSize(width: 1242, height: 2208), scale: 3, icons: .small, phone: nil,
              models: "Home button Plus phones", grid: grid(471, 1044, 1071, left: 99, right: 672, top: 114, middle: 696, bottom: 1278), provenance: widgetBlurOlder),
        Entry(screenshot: PixelSize(width: 1125, height: 2001), scale: 3, icons: .small, phone: nil,
              models: "Home button Plus in Display Zoom mode", grid: grid(444, 963, 972, left: 81, right: 600, top: 90, middle: 618, bottom: 1146), provenance: widgetBlurOlder),
        Entry(screenshot: PixelSize(width: 640, height: 1136), scale: 2, icons: .small, phone: nil,
              models: "SE1", grid: grid(282, 584, 622, left: 30, right: 332, top: 59, middle: 399, bottom: nil), provenance: widgetBlurOlder),
    ])

    /// no-background (2022, iOS 16): supermamon/scriptable-no-background no-background.js @b3f3d83d6ccf (2022-12-07).
    static let noBackground2022 = Table(
        source: "supermamon/scriptable-no-background no-background.js @b3f3d83d6ccf (2022-12-07)", iOS: 16...17, measuredOn: 16, entries: [
        Entry(screenshot: PixelSize(width: 1290, height: 2796), scale: 3, icons: .small, phone: nil,
              models: "14 Pro Max", grid: grid(510, 1092, 1146, left: 99, right: 681, top: 282, middle: 918, bottom: 1554), provenance: noBackgroundIOS16),
        Entry(screenshot: PixelSize(width: 1179, height: 2556), scale: 3, icons: .small, phone: nil,
              models: "14 Pro", grid: grid(474, 1014, 1062, left: 82, right: 622, top: 270, middle: 858, bottom: 1446), provenance: noBackgroundIOS16),
        Entry(screenshot: PixelSize(width: 1284, height: 2778), scale: 3, icons: .small, phone: nil,
              models: "12 Pro Max, 13 Pro Max, 14 Plus", grid: grid(510, 1092, 1146, left: 96, right: 678, top: 246, middle: 882, bottom: 1518), provenance: noBackgroundEarlier),
        Entry(screenshot: PixelSize(width: 1170, height: 2532), scale: 3, icons: .small, phone: nil,
              models: "12, 12 Pro, 13, 14", grid: grid(474, 1014, 1062, left: 78, right: 618, top: 231, middle: 819, bottom: 1407), provenance: noBackgroundEarlier),
        Entry(screenshot: PixelSize(width: 1242, height: 2688), scale: 3, icons: .small, phone: nil,
              models: "Xs Max, 11 Pro Max", grid: grid(507, 1080, 1137, left: 81, right: 654, top: 228, middle: 858, bottom: 1488), provenance: noBackgroundEarlier),
        Entry(screenshot: PixelSize(width: 828, height: 1792), scale: 2, icons: .small, phone: nil,
              models: "11, Xr", grid: grid(338, 720, 758, left: 54, right: 436, top: 160, middle: 580, bottom: 1000), provenance: noBackgroundEarlier),
        Entry(screenshot: PixelSize(width: 1125, height: 2436), scale: 3, icons: .small, phone: "iPhone X / XS / 11 Pro",
              models: "X, Xs, 11 Pro", grid: grid(465, 987, 1035, left: 69, right: 591, top: 213, middle: 783, bottom: 1353), provenance: noBackgroundEarlier),
        Entry(screenshot: PixelSize(width: 1125, height: 2436), scale: 3, icons: .small, phone: "iPhone 12 mini / 13 mini",
              models: "12 Mini", grid: grid(465, 987, 1035, left: 69, right: 591, top: 231, middle: 801, bottom: 1371), provenance: noBackgroundEarlier),
        Entry(screenshot: PixelSize(width: 1242, height: 2208), scale: 3, icons: .small, phone: nil,
              models: "6+, 6s+, 7+, 8+", grid: grid(471, 1044, 1071, left: 99, right: 672, top: 114, middle: 696, bottom: 1278), provenance: noBackgroundEarlier),
        Entry(screenshot: PixelSize(width: 750, height: 1334), scale: 2, icons: .small, phone: nil,
              models: "6, 6s, 7, 8", grid: grid(296, 642, 648, left: 54, right: 400, top: 60, middle: 412, bottom: 764), provenance: noBackgroundEarlier),
        Entry(screenshot: PixelSize(width: 640, height: 1136), scale: 2, icons: .small, phone: nil,
              models: "5, 5s, 5c, SE", grid: grid(282, 584, 622, left: 30, right: 332, top: 59, middle: 399, bottom: nil), provenance: noBackgroundEarlier),
    ])

    /// Transparent-Scriptable-Widget (2020, iOS 14): mzeryck/Transparent-Scriptable-Widget mz_transparent_widget.js @5c6076a40e02 (2020-11-13).
    static let transparentWidget2020 = Table(
        source: "mzeryck/Transparent-Scriptable-Widget mz_transparent_widget.js @5c6076a40e02 (2020-11-13)", iOS: 14...15, measuredOn: 14, entries: [
        Entry(screenshot: PixelSize(width: 1170, height: 2532), scale: 3, icons: .small, phone: nil,
              models: "12, 12 Pro", grid: grid(474, 1014, 1062, left: 78, right: 618, top: 231, middle: 819, bottom: 1407), provenance: transparentWidgetIOS14),
        Entry(screenshot: PixelSize(width: 1242, height: 2688), scale: 3, icons: .small, phone: nil,
              models: "XS Max, 11 Pro Max", grid: grid(507, 1080, 1137, left: 81, right: 654, top: 228, middle: 858, bottom: 1488), provenance: transparentWidgetIOS14),
        Entry(screenshot: PixelSize(width: 828, height: 1792), scale: 2, icons: .small, phone: nil,
              models: "XR, 11", grid: grid(338, 720, 758, left: 54, right: 436, top: 160, middle: 580, bottom: 1000), provenance: transparentWidgetIOS14),
        Entry(screenshot: PixelSize(width: 1125, height: 2436), scale: 3, icons: .small, phone: "iPhone X / XS / 11 Pro",
              models: "X, XS, 11 Pro", grid: grid(465, 987, 1035, left: 69, right: 591, top: 213, middle: 783, bottom: 1353), provenance: transparentWidgetIOS14),
        Entry(screenshot: PixelSize(width: 1242, height: 2208), scale: 3, icons: .small, phone: nil,
              models: "Plus phones", grid: grid(471, 1044, 1071, left: 99, right: 672, top: 114, middle: 696, bottom: 1278), provenance: transparentWidgetIOS14),
        Entry(screenshot: PixelSize(width: 750, height: 1334), scale: 2, icons: .small, phone: nil,
              models: "6, 6s, 7, 8, SE (2nd gen)", grid: grid(296, 642, 648, left: 54, right: 400, top: 60, middle: 412, bottom: 764), provenance: transparentWidgetIOS14),
        Entry(screenshot: PixelSize(width: 640, height: 1136), scale: 2, icons: .small, phone: nil,
              models: "5, 5s, 5c, SE", grid: grid(282, 584, 622, left: 30, right: 332, top: 59, middle: 399, bottom: nil), provenance: transparentWidgetIOS14),
        Entry(screenshot: PixelSize(width: 750, height: 1624), scale: 2, icons: .small, phone: nil,
              models: "XR, 11 in Display Zoom", grid: grid(310, 658, 690, left: 46, right: 394, top: 142, middle: 522, bottom: 902), provenance: transparentWidgetIOS14),
        Entry(screenshot: PixelSize(width: 1125, height: 2001), scale: 3, icons: .small, phone: nil,
              models: "Plus phones in Display Zoom", grid: grid(444, 963, 972, left: 81, right: 600, top: 90, middle: 618, bottom: 1146), provenance: transparentWidgetIOS14),
    ])
}
