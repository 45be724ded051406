import ImgCache

/// imgcache's own options: widget presets, frames, budget, colour policy, wallpaper slices,
/// tints, posters and timelines, with the names and ranges of the CLI's `--device`/`--widget`,
/// `--max-frames`, `--budget`, `--color`, `slice`, `--tint`, `--poster` and `--timeline-entries`.
extension ServeOptions {
    /// Longest device name `wd:` looks up: 64 characters.
    static let maxDeviceNameLength = 64

    /// `wd:DEVICE:FAMILY`, e.g. `wd:iphone-16-pro:medium`: the widget's size and scale from the
    /// device catalogue (a device name matched as `DeviceCatalog.device(named:)` matches, so that
    /// hyphens stand for spaces); FAMILY as the CLI's `--widget`. The Today modes take their
    /// options as further arguments: `wd:DEVICE:today-compact[:TEXT_SIZE]` and
    /// `wd:DEVICE:today-expanded[:ENTRY[:landscape|portrait]]`, an empty one keeping the default.
    mutating func applyWidget(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(2...4, "wd:DEVICE:FAMILY, e.g. wd:iphone-16-pro:medium")
        let device = try Self.device(option)
        let family = try option.word(1, "widget family")
        let target: ImageTarget
        switch family {
        case "today-compact":
            try option.expect(2...3, "wd:DEVICE:today-compact[:TEXT_SIZE]")
            let textSize = option.isOmitted(2) ? .l : try option.choice(2, "text size", of: TodayTextSize.self)
            target = .today(.compact(textSize), device: device)
        case "today-expanded":
            let entry = option.isOmitted(2) ? .todayView : try option.choice(2, "entry", of: TodayEntry.self)
            var landscape = false
            if !option.isOmitted(3) {
                switch option.arguments[3] {
                case "landscape": landscape = true
                case "portrait": landscape = false
                default: throw option.invalid("orientation '\(ServeURLError.quote(option.arguments[3]))' is not landscape or portrait")
                }
            }
            target = .today(.expanded(entry, landscape: landscape), device: device)
        default:
            guard let widgetFamily = WidgetFamily(rawValue: family) else {
                let families = WidgetFamily.allCases.map(\.rawValue) + ["today-compact", "today-expanded"]
                throw option.invalid("widget family '\(ServeURLError.quote(family))' is not one of \(families.joined(separator: ", "))")
            }
            try option.expect(2...2, "wd:DEVICE:FAMILY")
            target = .widget(widgetFamily, device: device)
        }
        let pixels: PixelSize
        do {
            pixels = try target.resolve().pixels
        } catch {
            throw option.invalid(Self.detail(of: error))
        }
        guard pixels.area <= limits.maxOutputPixels else {
            throw option.invalid("\(pixels) is over the output limit of \(limits.maxOutputPixels) pixels")
        }
        widget = Widget(target: target, device: device, option: option.name)
    }

    /// `fr:N`: most frames kept from an animation, 1 to 10,000 (`DecodingOptions.frameCounts`).
    mutating func applyFrames(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "fr:FRAMES")
        maxFrames = try option.wholeNumber(0, "frames", in: DecodingOptions.frameCounts)
    }

    /// `bu:BYTES`: the memory the kept frames may take, 0 to 64 MB (`DecodingOptions.frameBudgets`):
    /// a whole number of bytes, or of KB or MB (1 MB = 2^20 bytes), e.g. `bu:15MB`.
    mutating func applyBudget(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "bu:BYTES")
        let text = try option.word(0, "budget")
        let range = DecodingOptions.frameBudgets
        let units: [(suffix: String, multiplier: Int)] = [("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
        let unit = units.first { text.uppercased().hasSuffix($0.suffix) } ?? ("", 1)
        let digits = text.utf8.dropLast(unit.suffix.utf8.count)
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (0x30...0x39).contains($0) }),
              let number = Int(String(decoding: digits, as: UTF8.self))
        else {
            throw option.invalid("budget '\(ServeURLError.quote(text))' is not a whole number of bytes, KB or MB, such as 15MB")
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit.multiplier)
        guard !overflow, range.contains(bytes) else {
            throw option.invalid("budget \(text) is not in 0...\(range.upperBound) bytes (64MB)")
        }
        frameBudget = bytes
    }

    /// `cp:convert|keep|ignore`: the source's colour profile, as the CLI's `--color`.
    mutating func applyColorPolicy(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "cp:convert, cp:keep or cp:ignore")
        colorPolicy = try option.choice(0, "colour policy", of: ColorPolicy.self)
    }

    /// `po:1`: one still, the frame that represents an animation best, as the CLI's `--poster`.
    mutating func applyPoster(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "po:1 or po:0")
        poster = try option.bool(0, "poster")
    }

    /// `te:ENTRIES[:EXTENSION[:FIT]]`, e.g. `te:8` or `te:4:today:1`: the image is one of ENTRIES
    /// (1 to 1,000) of a widget timeline sharing EXTENSION's memory (`widgetkit`, the default, or
    /// `today`), as the CLI's `--timeline-entries`, `--extension` and, with a true FIT,
    /// `--fit-budget`; an image over its entry's budget is a 413 otherwise.
    mutating func applyTimeline(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...3, "te:ENTRIES[:EXTENSION[:FIT]], e.g. te:8 or te:4:today:1")
        let entries = try option.wholeNumber(0, "timeline entries", in: TimelineBudget.entryCounts)
        let memory = option.isOmitted(1) ? .widgetKit : try option.choice(1, "extension", of: ExtensionMemory.self)
        let fits = option.isOmitted(2) ? false : try option.bool(2, "fit")
        timeline = TimelineBudget(memory: memory, entries: entries, fitsImage: fits)
    }

    /// `sl:FAMILY:POSITION[:ICONS[:IOS]]`, e.g. `sl:medium:top`: the wallpaper behind that widget
    /// slot of a home-screen screenshot, as the CLI's `slice` cuts it; ICONS `small` (default)
    /// or `large`, IOS the version on the screenshot (at least 14; default, or empty: the newest
    /// with numbers for the screenshot's size, as `imgcache slice`). Large icons came with iOS 18.
    mutating func applySlice(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(2...4, "sl:FAMILY:POSITION[:ICONS[:IOS]]")
        let family = try option.word(0, "widget family")
        guard let widgetFamily = WidgetFamily(rawValue: family), !SlotPosition.positions(for: widgetFamily).isEmpty else {
            throw option.invalid("a home-screen slot is of a small, medium or large widget, not '\(ServeURLError.quote(family))'")
        }
        let positions = SlotPosition.positions(for: widgetFamily)
        let name = try option.word(1, "position")
        guard let position = SlotPosition(rawValue: name), positions.contains(position) else {
            throw option.invalid(
                "a \(family) widget sits at \(positions.map(\.rawValue).joined(separator: ", ")), not '\(ServeURLError.quote(name))'")
        }
        let icons = option.isOmitted(2) ? .small : try option.choice(2, "icon layout", of: IconLayout.self)
        let iOS = option.isOmitted(3) ? nil : try option.wholeNumber(3, "iOS version", in: 14...999)
        if let iOS, icons == .large, iOS < 18 { throw option.invalid("large icons came with iOS 18, not \(iOS)") }
        slice = Slice(family: widgetFamily, position: position, icons: icons, iOS: iOS)
    }

    /// `ti:TINT`: laid over the image after any blur, as the CLI's `--tint`: `light` or `dark`
    /// (Widget-Blur's overlays), a colour `RRGGBB` or `RRGGBBAA` source-over, or `none`.
    mutating func applyTint(_ option: ServeOption) throws(ServeURLError) {
        try option.expect(1...1, "ti:light, ti:dark, ti:none or ti:RRGGBBAA")
        let name = try option.word(0, "tint")
        if name == "none" {
            tint = nil
            return
        }
        guard let value = Tint(name: name) else {
            throw option.invalid("tint '\(ServeURLError.quote(name))' is not light, dark, none or a colour RRGGBB or RRGGBBAA")
        }
        tint = value
    }

    /// The device `wd:` names; an unknown one is refused with the closest names, written as
    /// `wd:` takes them (`iphone-16-pro`).
    private static func device(_ option: ServeOption) throws(ServeURLError) -> DeviceModel {
        let name = try option.word(0, "device")
        guard name.utf8.count <= maxDeviceNameLength else {
            throw option.invalid("the device name is over \(maxDeviceNameLength) characters")
        }
        do {
            return try DeviceCatalog.device(named: name)
        } catch ImgCacheError.unknownDevice(_, let suggestions) {
            throw option.invalid("unknown device '\(ServeURLError.quote(name))'; closest: \(suggestions.map(slug).joined(separator: ", "))")
        } catch {
            throw option.invalid(detail(of: error))
        }
    }

    /// A model name as `wd:` takes it: lower case, words joined by hyphens (`iphone-16-pro`).
    static func slug(_ name: String) -> String {
        name.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
    }

    /// The message of a library error: an `invalidArgument`'s own text, else its description.
    static func detail(of error: any Error) -> String {
        if case ImgCacheError.invalidArgument(let detail) = error { return detail }
        return "\(error)"
    }
}
