import Foundation
import ImgCache

/// `imgcache devices [--json]`
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "list the iPhone and iPad screens, their widget sizes and iOS 10 Today sizes"
    static var operands: OptionHelp.Value? { nil }
    static let usage = "imgcache devices [--json]"
    static let about = """
        Lists the device catalogue: each screen class, the models that share it (any of them can be
        given to --device), its size in points, its UIKit scale, and each widget family's size in
        points and in pixels (round(points x scale); on iPad the device size x 2). A size no public
        source gives is estimated by the home-screen model where it can be (the iPhone Air's
        widgets) and marked "estimated" with its expected error; else a dash marks it. On iPhones,
        the iOS 10 Today widget sizes: compact at the default text size (l) with the heights of all
        seven text sizes, and the largest expanded sizes a source gives; an estimated width is
        marked "estimated".
        """
    static let helpColumn = 9
    static let options: [OptionHelp] = [
        OptionHelp("--json", "print a JSON array instead of a table"),
    ]

    static func run(_ arguments: inout ArgumentList) throws {
        let json = arguments.flag("--json")
        _ = try arguments.positionals(0, usage: "imgcache devices [--json]")
        if json {
            let objects = DeviceCatalog.devices.map(jsonObject)
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        let families: [WidgetFamily] = [.small, .medium, .large, .extraLarge]
        for device in DeviceCatalog.devices {
            print("\(device.name)  (\(device.screen) pt @\(Int(device.scale))x)")
            print("  models: \(device.models.joined(separator: ", "))")
            let sizes = families.compactMap { family -> String? in
                guard device.kind == .iPad || family != .extraLarge else { return nil }
                guard let size = try? device.widgetSize(family) else { return "\(family.rawValue) -" }
                return "\(family.rawValue) \(size.points) pt = \(size.points.pixels(atScale: device.scale)) px\(marker(size.estimate))"
            }
            print("  widgets: \(sizes.joined(separator: "; "))")
            if device.kind == .iPhone { print("  today: \(todayLine(device))") }
        }
    }

    /// " (estimated, expected error up to N px)", " (estimated)" or nothing.
    private static func marker(_ estimate: SizeEstimate?) -> String {
        guard let estimate else { return "" }
        return estimate.expectedErrorPixels.map { " (estimated, expected error up to \($0) px)" } ?? " (estimated)"
    }

    /// The iPhone's Today sizes on one line.
    private static func todayLine(_ device: DeviceModel) -> String {
        func size(_ today: TodayWidgetSize) -> String? {
            guard let dimensions = try? today.dimensions(on: device) else { return nil }
            return "\(dimensions.points) pt = \(dimensions.points.pixels(atScale: device.scale)) px\(marker(dimensions.estimate))"
        }
        let heights = TodayTextSize.allCases.map { "\(Int($0.compactHeight))" }.joined(separator: ", ")
        var line = "compact l \(size(.compact()) ?? "-") (xs-xxxl: \(heights) pt high)"
        let expanded = TodayWidgetSize.all.filter { $0.name == "today-expanded" }.compactMap { today -> String? in
            guard case .expanded(let entry, let landscape) = today, let text = size(today) else { return nil }
            return "\(landscape ? "landscape " : "")\(entry.rawValue) \(text)"
        }
        line += "; expanded " + (expanded.isEmpty ? "- (no source)" : expanded.joined(separator: ", "))
        return line
    }

    private static func jsonObject(_ device: DeviceModel) -> [String: Any] {
        func entry(_ points: PointSize, pixels: Bool, estimate: SizeEstimate?) -> [String: Any] {
            var entry: [String: Any] = ["width": points.width, "height": points.height]
            if pixels {
                let size = points.pixels(atScale: device.scale)
                entry["pixels"] = ["width": size.width, "height": size.height]
                entry["estimated"] = estimate != nil
            }
            if let estimate {
                entry["estimate"] = estimate.basis
                if let error = estimate.expectedErrorPixels { entry["expected_error_px"] = error }
            }
            return entry
        }
        var widgets: [String: Any] = [:]
        for family in WidgetFamily.allCases {
            if let size = try? device.widgetSize(family) { widgets[family.rawValue] = entry(size.points, pixels: true, estimate: size.estimate) }
        }
        var object: [String: Any] = [
            "name": device.name, "models": device.models, "kind": device.kind.rawValue,
            "points": ["width": device.screen.width, "height": device.screen.height], "scale": device.scale,
            "safeArea": ["top": device.safeAreaInsets.top, "bottom": device.safeAreaInsets.bottom],
            "widgets": widgets,
        ]
        if device.kind == .iPad {
            object["widgetCanvas"] = Dictionary(uniqueKeysWithValues: device.widgetCanvasSizes.map {
                ($0.key.rawValue, entry($0.value, pixels: false, estimate: nil))
            })
        } else {
            object["today"] = TodayWidgetSize.all.compactMap { today -> [String: Any]? in
                guard let dimensions = try? today.dimensions(on: device) else { return nil }
                var item = entry(dimensions.points, pixels: true, estimate: dimensions.estimate)
                item["mode"] = today.name
                item["sources"] = ["width": dimensions.widthSource, "height": dimensions.heightSource]
                switch today {
                case .compact(let textSize): item["text_size"] = textSize.rawValue
                case .expanded(let entry, let landscape):
                    item["entry"] = entry.rawValue
                    item["landscape"] = landscape
                }
                return item
            }
        }
        return object
    }
}
