import ImgCache

/// `imgcache layout (--device NAME | --screenshot-size WxH) [--icons small|large] [--ios N] [--json]`
enum LayoutCommand: Command {
    static let name = "layout"
    static let summary = "where each widget slot sits on an iPhone home screen, in pixels and points"
    static var operands: OptionHelp.Value? { nil }
    static let usage = "imgcache layout (--device NAME | --screenshot-size WxH) [options]"
    static let about = """
        Prints every widget slot of an iPhone home screen (small top-left to large bottom) as a
        rectangle in the pixels of a portrait screenshot and in points (pixels / scale), with where
        the numbers come from: a measured table (the models it was measured on, and whether its
        source confirmed the row for that iOS version, in the source's words), or an estimate and
        its expected error; and where another published measurement of the same screen disagrees
        by more than 3 px. A phone with two rows of widgets has fewer slots.
        """
    static let options: [OptionHelp] = [
        OptionHelp("--screenshot-size", "WxH", .text, "the screenshot's size in pixels (default: the --device's screen)"),
    ] + LayoutArguments.deviceOptions + LayoutArguments.options + [
        OptionHelp("--json", """
            print one JSON object: the layout's screenshot size, scale, icons, iOS
            versions, source, models, "estimated", "confirmed", "provenance",
            "expected_error_px" (null when measured and confirmed),
            "other_sources" and its "slots", each with "pixels" and "points"
            """),
    ]

    static func run(_ arguments: inout ArgumentList) throws {
        let layoutArguments = try LayoutArguments.parse(&arguments)
        let size = try arguments.value("--screenshot-size", expected: "WxH, e.g. 1206x2622", parse: PixelSize.init(parsing:))
        let json = arguments.flag("--json")
        _ = try arguments.positionals(0, usage: "imgcache layout (--device NAME | --screenshot-size WxH)")
        guard let screenshot = size ?? layoutArguments.device?.screenPixels else {
            throw UsageError("give --device NAME or --screenshot-size WxH")
        }
        let layout = try layoutArguments.layout(screenshot: screenshot)
        if json {
            var object = LayoutReport.fields(layout)
            object["slots"] = layout.slots.map { LayoutReport.fields($0, scale: layout.scale) }
            print(try FetchReport.json(object))
            return
        }
        print(LayoutReport.summary(layout))
        print("slot".padded(20) + "pixels".padded(20) + "points")
        for slot in layout.slots {
            print(slot.name.padded(20) + LayoutReport.text(slot.rect).padded(20) + LayoutReport.text(slot.rect, scale: layout.scale))
        }
    }
}

extension String {
    /// The string padded with spaces to `width` characters (and one space at least).
    func padded(_ width: Int) -> String {
        count < width ? padding(toLength: width, withPad: " ", startingAt: 0) : self + " "
    }
}
