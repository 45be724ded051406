import ImgCache

/// The options `layout`, `slice` and `overlay` share: which home-screen layout describes a
/// screenshot of a given size.
struct LayoutArguments {
    static let options: [OptionHelp] = [
        OptionHelp("--icons", "LAYOUT", .words(IconLayout.allCases.map(\.rawValue)), """
            small (icons with labels, the default) or large (iOS 18's large icons
            without labels)
            """),
        OptionHelp("--ios", "N", .text, """
            the iOS version on the screenshot: 14-15, 16-17 and 18 have measured
            tables; 26 and later are estimated from iOS 18 (default: the newest
            version with numbers for the screenshot's size, 26 for the 16 Pro's
            and for sizes no table has, else 18)
            """),
        OptionHelp("--strict", """
            refuse a screenshot size that is no iPhone's (neither a measured
            table's nor a screen in 'imgcache devices') rather than give it to
            the layout model
            """),
    ]

    static let deviceOptions: [OptionHelp] = [
        OptionHelp("--device", "NAME", .words(LayoutArguments.deviceWords), """
            the phone (any name 'imgcache devices' lists): needed for 1125x2436
            screenshots, which the X/XS/11 Pro and the 12/13 mini share
            """),
    ]

    /// `--device`'s words: every iPhone model name.
    static let deviceWords = DeviceCatalog.devices.filter { $0.kind == .iPhone }.flatMap(\.models)

    var device: DeviceModel?
    var icons = IconLayout.small
    /// Nil: `HomeScreenLayout.defaultIOS(screenshot:)`.
    var iOS: Int?
    var strict = false

    /// Reads `--device`, `--icons`, `--ios` and `--strict`.
    static func parse(_ arguments: inout ArgumentList) throws -> LayoutArguments {
        var result = LayoutArguments()
        result.device = try arguments.value("--device").map { try DeviceCatalog.device(named: $0) }
        result.icons = try arguments.value("--icons", expected: "small or large") { IconLayout(rawValue: $0) } ?? .small
        result.iOS = try arguments.value("--ios", expected: "an iOS version such as 26") { Int($0) }
        result.strict = arguments.flag("--strict")
        return result
    }

    /// The layout of a portrait screenshot of `size` pixels (memoised). An estimated layout is
    /// announced on standard error, with its expected error (a row its source did not confirm is
    /// said in the layout's summary and JSON).
    func layout(screenshot size: PixelSize) throws -> HomeScreenLayout {
        if strict, size.height > size.width, !HomeScreenLayout.knownScreenshotSizes.contains(size) {
            throw UsageError("\(size) is no iPhone's screenshot size (--strict): no measured table has it and no phone in 'imgcache devices'")
        }
        let layout = try HomeScreenLayout.memoised(screenshot: size, icons: icons, iOS: iOS, device: device)
        if layout.isEstimated, let error = layout.expectedErrorPixels {
            CommandLineTool.printError(
                "imgcache: the \(size) layout is estimated, not measured (expected error about \(error) px): \(layout.source)")
        }
        return layout
    }
}
