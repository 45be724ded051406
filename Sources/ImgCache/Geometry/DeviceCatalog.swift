/// Every iPhone and iPad screen class with its widget sizes, transcribed from public sources:
/// - screens: Apple HIG "Layout" specifications (points, UIKit scale);
///   https://developer.apple.com/design/human-interface-guidelines/layout#Specifications
/// - widgets: Apple HIG "Widgets" specifications (points per screen size; iPad canvas and device
///   columns); https://developer.apple.com/design/human-interface-guidelines/widgets#Specifications
/// - 402x874 and 440x956 phones, which the HIG table lacks: home-screen screenshot measurements
///   (mzeryck/Widget-Blur widget-blur.js @bd85184a3b93, phoneSizes() "2622" and "2868", divided by 3).
/// - 414x736 (Plus): the HIG row is inconsistent (small 159 beside medium height 157); small is
///   157x157 as measured by simonbs/ios-widget-sizes and screenshots (471 px at 3x).
/// - safe-area insets (portrait, points): ../shared/devices/devices.json `safe_area_portrait`, from
///   the Bandyer/Kaleyra iOS SDK's Device_SafeAreaTests.swift, aloisdeniel/flutter_device_preview
///   device_specs @42089cdcba72 (iOS 26.5 simulator probes: 16e, 16, 16 Pro, Air, iPads with 32/25),
///   karolszafranski/SafeAreaInsetsWithStoryboard @d90b2a7185f7 and ghostcrying/ThenNotes
///   @6aaeba3ca887 (status bars since iOS 14: XR/11 48, 12-14 47, 14 Pro 59, X class 44, home button 20).
/// Not published anywhere we could find, so absent from `widgetSizes`: iPhone Air widgets (the
/// home-screen model estimates them, see `DeviceModel.widgetSize`), Lock Screen sizes of 402x874
/// and 440x956, and the iPad Pro M4 (834x1210, 1032x1376).
public enum DeviceCatalog {
    /// Widget sizes of one phone screen class: small side, medium and large sizes, and accessories.
    private static func phone(
        small: Double, medium: (Double, Double), large: (Double, Double),
        circular: Double? = nil, rectangular: (Double, Double)? = nil, inline: (Double, Double)? = nil
    ) -> [WidgetFamily: PointSize] {
        var sizes: [WidgetFamily: PointSize] = [
            .small: PointSize(width: small, height: small),
            .medium: PointSize(width: medium.0, height: medium.1),
            .large: PointSize(width: large.0, height: large.1),
        ]
        if let circular { sizes[.accessoryCircular] = PointSize(width: circular, height: circular) }
        if let rectangular { sizes[.accessoryRectangular] = PointSize(width: rectangular.0, height: rectangular.1) }
        if let inline { sizes[.accessoryInline] = PointSize(width: inline.0, height: inline.1) }
        return sizes
    }

    /// Widget sizes of one iPad screen class (HIG: small side, medium width, large side, extra-large width).
    private static func pad(small: Double, mediumWidth: Double, large: Double, extraLargeWidth: Double)
        -> [WidgetFamily: PointSize]
    {
        [
            .small: PointSize(width: small, height: small),
            .medium: PointSize(width: mediumWidth, height: small),
            .large: PointSize(width: large, height: large),
            .extraLarge: PointSize(width: extraLargeWidth, height: large),
        ]
    }

    private static func iPhone(
        _ name: String, models: [String], points: (Double, Double), scale: Double, insets: (top: Double, bottom: Double),
        widgets: [WidgetFamily: PointSize], widgetsFromScreenshots: Bool = false
    ) -> DeviceModel {
        DeviceModel(
            name: name, models: models, kind: .iPhone, screen: PointSize(width: points.0, height: points.1),
            scale: scale, safeAreaInsets: SafeAreaInsets(top: insets.top, bottom: insets.bottom),
            widgetSizes: widgets, widgetCanvasSizes: [:], widgetSizesFromScreenshots: widgetsFromScreenshots)
    }

    private static func iPad(
        _ name: String, models: [String], points: (Double, Double), insets: (top: Double, bottom: Double),
        device: [WidgetFamily: PointSize], canvas: [WidgetFamily: PointSize]
    ) -> DeviceModel {
        DeviceModel(
            name: name, models: models, kind: .iPad, screen: PointSize(width: points.0, height: points.1),
            scale: 2, safeAreaInsets: SafeAreaInsets(top: insets.top, bottom: insets.bottom),
            widgetSizes: device, widgetCanvasSizes: canvas, widgetSizesFromScreenshots: false)
    }

    // Widget sizes shared by several screen classes (HIG rows).
    private static let phone320x568 = phone(small: 141, medium: (292, 141), large: (292, 311))
    private static let phone375x667 = phone(
        small: 148, medium: (321, 148), large: (321, 324), circular: 68, rectangular: (153, 68), inline: (225, 26))
    private static let phone414x736 = phone(
        small: 157, medium: (348, 157), large: (348, 357), circular: 76, rectangular: (170, 76), inline: (248, 26))
    private static let phone375x812 = phone(
        small: 155, medium: (329, 155), large: (329, 345), circular: 72, rectangular: (157, 72), inline: (225, 26))
    private static let phone414x896 = phone(
        small: 169, medium: (360, 169), large: (360, 379), circular: 76, rectangular: (160, 72), inline: (248, 26))
    private static let phone390x844 = phone(
        small: 158, medium: (338, 158), large: (338, 354), circular: 72, rectangular: (160, 72), inline: (234, 26))
    private static let phone428x926 = phone(
        small: 170, medium: (364, 170), large: (364, 382), circular: 76, rectangular: (172, 76), inline: (257, 26))
    private static let phone402x874 = phone(small: 162, medium: (344, 162), large: (344, 366))
    private static let phone440x956 = phone(small: 170, medium: (364, 170), large: (364, 382))

    /// The catalogue, phones then iPads, smallest first.
    public static let devices: [DeviceModel] = [
        iPhone("iPhone SE (1st gen) / 5s", models: ["iPhone SE (1st generation)", "iPhone 5s", "iPod touch (7th generation)"],
               points: (320, 568), scale: 2, insets: (20, 0), widgets: phone320x568),
        iPhone("iPhone 6 / 6s / 7 / 8 / SE (2nd, 3rd gen)",
               models: ["iPhone 6", "iPhone 6s", "iPhone 7", "iPhone 8", "iPhone SE (2nd generation)", "iPhone SE (3rd generation)"],
               points: (375, 667), scale: 2, insets: (20, 0), widgets: phone375x667),
        iPhone("iPhone 6 Plus / 6s Plus / 7 Plus / 8 Plus",
               models: ["iPhone 6 Plus", "iPhone 6s Plus", "iPhone 7 Plus", "iPhone 8 Plus"],
               points: (414, 736), scale: 3, insets: (20, 0), widgets: phone414x736),
        iPhone("iPhone X / XS / 11 Pro", models: ["iPhone X", "iPhone XS", "iPhone 11 Pro"],
               points: (375, 812), scale: 3, insets: (44, 34), widgets: phone375x812),
        iPhone("iPhone XS Max / 11 Pro Max", models: ["iPhone XS Max", "iPhone 11 Pro Max"],
               points: (414, 896), scale: 3, insets: (44, 34), widgets: phone414x896),
        iPhone("iPhone XR / 11", models: ["iPhone XR", "iPhone 11"], points: (414, 896), scale: 2, insets: (48, 34), widgets: phone414x896),
        iPhone("iPhone 12 mini / 13 mini", models: ["iPhone 12 mini", "iPhone 13 mini"],
               points: (375, 812), scale: 3, insets: (50, 34), widgets: phone375x812),
        iPhone("iPhone 12 / 12 Pro / 13 / 13 Pro / 14 / 16e",
               models: ["iPhone 12", "iPhone 12 Pro", "iPhone 13", "iPhone 13 Pro", "iPhone 14", "iPhone 16e"],
               points: (390, 844), scale: 3, insets: (47, 34), widgets: phone390x844),
        iPhone("iPhone 17e", models: ["iPhone 17e"], points: (390, 844), scale: 3, insets: (47, 34), widgets: phone390x844),
        iPhone("iPhone 12 Pro Max / 13 Pro Max / 14 Plus", models: ["iPhone 12 Pro Max", "iPhone 13 Pro Max", "iPhone 14 Plus"],
               points: (428, 926), scale: 3, insets: (47, 34), widgets: phone428x926),
        iPhone("iPhone 14 Pro / 15 / 15 Pro / 16", models: ["iPhone 14 Pro", "iPhone 15", "iPhone 15 Pro", "iPhone 16"],
               points: (393, 852), scale: 3, insets: (59, 34), widgets: phone390x844),
        iPhone("iPhone 14 Pro Max / 15 Plus / 15 Pro Max / 16 Plus",
               models: ["iPhone 14 Pro Max", "iPhone 15 Plus", "iPhone 15 Pro Max", "iPhone 16 Plus"],
               points: (430, 932), scale: 3, insets: (59, 34), widgets: phone428x926),
        iPhone("iPhone 16 Pro / 17 / 17 Pro", models: ["iPhone 16 Pro", "iPhone 17", "iPhone 17 Pro"],
               points: (402, 874), scale: 3, insets: (62, 34), widgets: phone402x874,
               widgetsFromScreenshots: true),
        iPhone("iPhone 16 Pro Max / 17 Pro Max", models: ["iPhone 16 Pro Max", "iPhone 17 Pro Max"],
               points: (440, 956), scale: 3, insets: (62, 34), widgets: phone440x956,
               widgetsFromScreenshots: true),
        iPhone("iPhone Air", models: ["iPhone Air"], points: (420, 912), scale: 3, insets: (68, 34), widgets: [:]),

        iPad("iPad 9.7-inch / iPad mini 7.9-inch / iPad Air 9.7 / iPad Pro 9.7",
             models: ["iPad (5th generation)", "iPad (6th generation)", "iPad mini 4", "iPad mini (5th generation)",
                      "iPad Air 2", "iPad Pro 9.7-inch"],
             points: (768, 1024), insets: (20, 0),
             device: pad(small: 120, mediumWidth: 260, large: 260, extraLargeWidth: 540),
             canvas: pad(small: 141, mediumWidth: 305.5, large: 305.5, extraLargeWidth: 634.5)),
        iPad("iPad 10.2-inch (7th-9th gen)",
             models: ["iPad (7th generation)", "iPad (8th generation)", "iPad (9th generation)"],
             points: (810, 1080), insets: (20, 0),
             device: pad(small: 124, mediumWidth: 272, large: 272, extraLargeWidth: 568),
             canvas: pad(small: 146, mediumWidth: 320.5, large: 320.5, extraLargeWidth: 669)),
        iPad("iPad Pro 10.5-inch / iPad Air 10.5-inch (3rd gen)",
             models: ["iPad Pro 10.5-inch", "iPad Air (3rd generation)"],
             points: (834, 1112), insets: (20, 0),
             device: pad(small: 132, mediumWidth: 288, large: 288, extraLargeWidth: 600),
             canvas: pad(small: 150, mediumWidth: 327.5, large: 327.5, extraLargeWidth: 682)),
        iPad("iPad mini 8.3-inch (6th gen, A17 Pro)", models: ["iPad mini (6th generation)", "iPad mini (A17 Pro)"],
             points: (744, 1133), insets: (32, 25),
             device: pad(small: 120, mediumWidth: 260, large: 260, extraLargeWidth: 540),
             canvas: pad(small: 141, mediumWidth: 305.5, large: 305.5, extraLargeWidth: 634.5)),
        iPad("iPad Air 10.9/11-inch, iPad 10th gen / A16 (11-inch)",
             models: ["iPad Air (4th generation)", "iPad Air (5th generation)", "iPad Air 11-inch (M2)",
                      "iPad (10th generation)", "iPad (A16)"],
             points: (820, 1180), insets: (32, 25),
             device: pad(small: 136, mediumWidth: 300, large: 300, extraLargeWidth: 628),
             canvas: pad(small: 155, mediumWidth: 342, large: 342, extraLargeWidth: 715.5)),
        iPad("iPad Pro 11-inch (1st-4th gen)",
             models: ["iPad Pro 11-inch (1st generation)", "iPad Pro 11-inch (2nd generation)",
                      "iPad Pro 11-inch (3rd generation)", "iPad Pro 11-inch (4th generation)"],
             points: (834, 1194), insets: (24, 20),
             device: pad(small: 136, mediumWidth: 300, large: 300, extraLargeWidth: 628),
             canvas: pad(small: 155, mediumWidth: 342, large: 342, extraLargeWidth: 715.5)),
        iPad("iPad Pro 11-inch (M4/M5)", models: ["iPad Pro 11-inch (M4)", "iPad Pro 11-inch (M5)"],
             points: (834, 1210), insets: (32, 25), device: [:], canvas: [:]),
        iPad("iPad Pro 12.9-inch (3rd-6th gen) / iPad Air 13-inch (M2)",
             models: ["iPad Pro 12.9-inch (3rd generation)", "iPad Pro 12.9-inch (4th generation)",
                      "iPad Pro 12.9-inch (5th generation)", "iPad Pro 12.9-inch (6th generation)",
                      "iPad Air 13-inch (M2)"],
             points: (1024, 1366), insets: (24, 20),
             device: pad(small: 160, mediumWidth: 356, large: 356, extraLargeWidth: 748),
             canvas: pad(small: 170, mediumWidth: 378.5, large: 378.5, extraLargeWidth: 795)),
        iPad("iPad Pro 13-inch (M4/M5)", models: ["iPad Pro 13-inch (M4)", "iPad Pro 13-inch (M5)"],
             points: (1032, 1376), insets: (32, 25), device: [:], canvas: [:]),
    ]
}
