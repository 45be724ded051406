import Foundation
import ImgCache

/// Named sets of options, imgproxy's presets: a definition `NAME=OPTION/OPTION...` (imgproxy's
/// `IMGPROXY_PRESETS` and `IMGPROXY_PRESETS_PATH` format) gives NAME the options as a URL writes
/// them, and `pr:NAME[:NAME...]` (or `preset:`) in a URL stands for them, in order. A preset may
/// name others; as in imgproxy, a preset named again inside its own expansion (a loop) is skipped
/// there, so `a=w:10/pr:b` with `b=pr:a` expands `pr:a` to `w:10`. The preset `default`, when defined, is
/// applied before a URL's own options. Presets expand before the options are read, so the
/// expanded options, not the names, make a variant's cache key: a changed preset gives new
/// variants.
public struct ServePresets: Sendable {
    /// Most options one URL may expand to, its presets included: 1,024 (presets naming presets
    /// several times could otherwise multiply).
    public static let maxExpandedOptions = 1024

    /// Each preset's options as written.
    private let definitions: [String: [ServeOption]]

    /// No presets.
    public init() {
        definitions = [:]
    }

    /// The presets `lines` define, one `NAME=OPTIONS` a line: blank lines and lines starting with
    /// `#` are skipped, spaces around the name and the options are dropped (a presets file's
    /// format, as imgproxy reads it).
    ///
    /// - Throws: `ImgCacheError.invalidArgument` naming the line for a line without `=`, an empty
    ///   name or options, a name holding `:`, `/` or a byte outside printable ASCII, a name defined
    ///   twice, an option that is not one or is refused as a URL's would be (its name, argument
    ///   count and range, checked under `limits`), or a `pr:` naming no preset.
    public init(lines: [String], limits: DecodingLimits = DecodingLimits()) throws {
        var definitions: [String: [ServeOption]] = [:]
        var references: [(preset: String, names: [String])] = []
        for line in lines {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let parts = text.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw Self.invalid(line, "a preset is NAME=OPTIONS, with one '='") }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !value.isEmpty else { throw Self.invalid(line, "the name and the options must not be empty") }
            guard name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && !":/=".utf8.contains($0) }) else {
                throw Self.invalid(line, "a preset's name is printable ASCII without ':', '/' or '='")
            }
            guard definitions[name] == nil else { throw Self.invalid(line, "preset '\(name)' is defined twice") }
            var options: [ServeOption] = []
            var checked = ServeOptions(limits: limits)
            for segment in value.split(separator: "/", omittingEmptySubsequences: false) {
                guard segment.contains(":") else { throw Self.invalid(line, "'\(segment)' is no option (NAME:ARGUMENTS)") }
                let option = ServeOption(segment: Array(segment.utf8))
                do {
                    if Self.isPreset(option) {
                        references.append((name, option.arguments))
                    } else {
                        try checked.apply(option)
                    }
                } catch {
                    throw Self.invalid(line, error.description)
                }
                options.append(option)
            }
            definitions[name] = options
        }
        for (preset, names) in references {
            if let unknown = names.first(where: { definitions[$0] == nil }) {
                throw ImgCacheError.invalidArgument("preset '\(preset)' names preset '\(unknown)', which is not defined")
            }
        }
        self.definitions = definitions
    }

    /// The names defined, sorted.
    public var names: [String] { definitions.keys.sorted() }

    /// True for `pr` and `preset`.
    static func isPreset(_ option: ServeOption) -> Bool {
        option.name == "pr" || option.name == "preset"
    }

    /// The `default` preset's options (when defined), then `options` with each `pr:`/`preset:`
    /// replaced by its presets' options, recursively.
    /// - Throws: `invalidOption` naming the option for an unknown preset, an empty name, or more
    ///   than `maxExpandedOptions` options.
    func expand(_ options: [ServeOption]) throws(ServeURLError) -> [ServeOption] {
        var expanded = try defaults()
        try append(options, chain: [], to: &expanded)
        return expanded
    }

    /// The `default` preset's options (when defined), then those of presets `names` (imgproxy's
    /// presets-only segment, read as the arguments of an option `option`), expanded as `expand` does.
    func expand(names: [String], option: String) throws(ServeURLError) -> [ServeOption] {
        var expanded = try defaults()
        try append(names: names, option: option, chain: [], to: &expanded)
        return expanded
    }

    /// The `default` preset's options, expanded; none when it is not defined.
    private func defaults() throws(ServeURLError) -> [ServeOption] {
        var expanded: [ServeOption] = []
        if definitions["default"] != nil { try append(names: ["default"], option: "pr", chain: [], to: &expanded) }
        return expanded
    }

    private func append(_ options: [ServeOption], chain: [String], to expanded: inout [ServeOption]) throws(ServeURLError) {
        for option in options {
            if Self.isPreset(option) {
                try option.expect(1...Self.maxExpandedOptions, "pr:NAME[:NAME...]")
                try append(names: option.arguments, option: option.name, chain: chain, to: &expanded)
                continue
            }
            guard expanded.count < Self.maxExpandedOptions else {
                throw .invalidOption(name: "pr", detail: "the presets expand to over \(Self.maxExpandedOptions) options")
            }
            expanded.append(option)
        }
    }

    private func append(names: [String], option: String, chain: [String], to expanded: inout [ServeOption]) throws(ServeURLError) {
        let quotedOption = ServeURLError.quote(option)
        for name in names {
            guard !name.isEmpty else { throw .invalidOption(name: quotedOption, detail: "a preset's name is empty") }
            guard let options = definitions[name] else {
                throw .invalidOption(name: quotedOption, detail: "unknown preset '\(ServeURLError.quote(name))'")
            }
            if chain.contains(name) { continue }
            try append(options, chain: chain + [name], to: &expanded)
        }
    }

    private static func invalid(_ line: String, _ detail: String) -> ImgCacheError {
        .invalidArgument("preset '\(ServeURLError.quote(line.trimmingCharacters(in: .whitespaces)))': \(detail)")
    }
}
