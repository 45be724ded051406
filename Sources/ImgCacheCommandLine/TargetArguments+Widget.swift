import ImgCache

extension TargetArguments {
    /// One `--widget` word: a WidgetKit family or an iOS 10 Today mode.
    enum Widget: Equatable {
        case family(WidgetFamily)
        case todayCompact
        case todayExpanded

        /// Every `--widget` word: the WidgetKit families, then the Today modes.
        static let names = WidgetFamily.allCases.map(\.rawValue) + ["today-compact", "today-expanded"]

        init?(name: String) {
            switch name {
            case "today-compact": self = .todayCompact
            case "today-expanded": self = .todayExpanded
            default:
                guard let family = WidgetFamily(rawValue: name) else { return nil }
                self = .family(family)
            }
        }

        /// The target on `device`, the Today modes sized by `today`.
        func target(device: DeviceModel, today: TodayOptions) -> ImageTarget {
            switch self {
            case .family(let family): return .widget(family, device: device)
            case .todayCompact: return .today(.compact(today.textSize), device: device)
            case .todayExpanded: return .today(.expanded(today.entry, landscape: today.landscape), device: device)
            }
        }
    }

    /// `--text-size`, `--entry` and `--landscape`, each refused without the Today mode it sizes.
    struct TodayOptions {
        var textSize = TodayTextSize.l
        var entry = TodayEntry.todayView
        var landscape = false

        static func parse(_ arguments: inout ArgumentList, widgets: [Widget]) throws -> TodayOptions {
            var options = TodayOptions()
            let textSize = try arguments.value("--text-size", expected: "xs, s, m, l, xl, xxl or xxxl") { TodayTextSize(rawValue: $0) }
            let entry = try arguments.value("--entry", expected: "today-view or notification-center") { TodayEntry(rawValue: $0) }
            options.landscape = arguments.flag("--landscape")
            if let textSize {
                guard widgets.contains(.todayCompact) else { throw UsageError("--text-size goes with --widget today-compact") }
                options.textSize = textSize
            }
            if let entry {
                guard widgets.contains(.todayExpanded) else { throw UsageError("--entry goes with --widget today-expanded") }
                options.entry = entry
            }
            if options.landscape, !widgets.contains(.todayExpanded) {
                throw UsageError("--landscape goes with --widget today-expanded")
            }
            return options
        }
    }
}

extension ImageTarget {
    /// How the CLI names a device target in its notes, e.g. "iPhone Air small".
    var label: String {
        switch self {
        case .widget(let family, let device): return "\(device.name) \(family.rawValue)"
        case .today(let size, let device): return "\(device.name) \(size)"
        case .pixels(let size): return "\(size) px"
        case .points(let size, let scale): return "\(size) pt @\(scale)x"
        }
    }
}
