import Foundation
import ImgCache

/// `imgcache devices [--json]`
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "list the iPhone and iPad screens and their widget sizes"
    static let help = """
        Usage: imgcache devices [--json]

        Lists the device catalogue: each screen class, the models that share it (any of them can be
        given to --device), its size in points, its UIKit scale, and each widget family's size in
        points and in pixels (round(points x scale); on iPad the device size x 2). A dash marks a
        size no public source gives.

        Options:
          --json   print a JSON array instead of a table
        """

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
                guard let points = device.widgetSizes[family] else { return "\(family.rawValue) -" }
                return "\(family.rawValue) \(points) pt = \(points.pixels(atScale: device.scale)) px"
            }
            print("  widgets: \(sizes.joined(separator: "; "))")
        }
    }

    private static func jsonObject(_ device: DeviceModel) -> [String: Any] {
        func sizes(_ table: [WidgetFamily: PointSize], pixels: Bool) -> [String: Any] {
            var result: [String: Any] = [:]
            for (family, points) in table {
                var entry: [String: Any] = ["width": points.width, "height": points.height]
                if pixels {
                    let size = points.pixels(atScale: device.scale)
                    entry["pixels"] = ["width": size.width, "height": size.height]
                }
                result[family.rawValue] = entry
            }
            return result
        }
        var object: [String: Any] = [
            "name": device.name, "models": device.models, "kind": device.kind.rawValue,
            "points": ["width": device.screen.width, "height": device.screen.height], "scale": device.scale,
            "widgets": sizes(device.widgetSizes, pixels: true),
        ]
        if device.kind == .iPad { object["widgetCanvas"] = sizes(device.widgetCanvasSizes, pixels: false) }
        return object
    }
}
