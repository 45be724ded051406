import ImgCache

/// `--blur SIGMA` and `--tint TINT`: the processors `fetch`, `prefetch`, `decode` and `slice` run
/// on the resized pixels before they are encoded, the blur first (as Widget-Blur lays its overlay
/// over its blur).
struct ProcessingArguments {
    static let options: [OptionHelp] = [
        OptionHelp("--blur", "SIGMA", .text, """
            a Gaussian blur of SIGMA points, above 0 and at most 100: pixels =
            SIGMA x the target's scale (1 for --size without --scale), run on
            the resized image (part of a cached variant's key)
            """),
        OptionHelp("--tint", "TINT", .words(ProcessingArguments.tintWords), """
            laid over the image after any blur: light or dark (Widget-Blur's
            overlays), none (default), or a colour RRGGBB or RRGGBBAA, source-over
            """),
    ]

    /// `--blur`, in points; nil when not given.
    var blur: Double?
    /// `--tint`'s named values (a colour is the other).
    static let tintWords = ["light", "dark", "none"]

    /// `--tint`; nil when not given or `none`.
    var tint: Tint?

    static func parse(_ arguments: inout ArgumentList) throws -> ProcessingArguments {
        var result = ProcessingArguments()
        result.blur = try arguments.value("--blur", expected: "a sigma in points above 0 and at most 100, such as 10") { text in
            Double(text).flatMap { (try? GaussianBlur(sigma: $0)) != nil ? $0 : nil }
        }
        let tint = try arguments.value("--tint", expected: "light, dark, none or a colour RRGGBB or RRGGBBAA") { text -> Tint?? in
            text.lowercased() == "none" ? .some(nil) : Tint(name: text).map(Optional.some)
        }
        result.tint = tint ?? nil
        return result
    }

    /// The processors in order, the blur in points (the request's scale turns it into pixels),
    /// or, with `pixelsPerPoint`, in pixels of that many per point (a slice, whose request has no
    /// target).
    func processors(pixelsPerPoint: Double? = nil) throws -> [any ImageProcessing] {
        var processors: [any ImageProcessing] = []
        if let blur {
            let blur = try pixelsPerPoint.map { try GaussianBlur(sigma: blur * $0, unit: .pixels) } ?? GaussianBlur(sigma: blur)
            processors.append(blur)
        }
        if let tint { processors.append(tint) }
        return processors
    }
}
