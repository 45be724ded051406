import Foundation

/// `man imgcache`: the page, in roff (man macros), written from the verbs' help tables: the
/// general help's purpose, then for each verb its summary, usage, description, verbs and
/// options, then the exit codes.
enum ManPage {
    /// The section of the manual the page belongs to (user commands).
    static let section = 1

    static func page(for commands: [any Command.Type]) -> String {
        var lines = [
            ".\\\" imgcache(1), written by 'imgcache man'.",
            ".TH IMGCACHE \(section) \"\" \"imgcache \(CommandLineTool.version)\" \"User Commands\"",
            // Left-aligned and unhyphenated: option names and variables stay whole.
            ".nh",
            ".ad l",
            ".SH NAME",
            "imgcache \\- \(text(CommandLineTool.purpose))",
            ".SH SYNOPSIS",
            ".B imgcache",
            ".I verb",
            ".RI [ options ]",
            ".br",
            ".B imgcache",
            ".I verb",
            ".B \\-\\-help",
            ".br",
            ".B imgcache \\-\\-version",
            ".SH DESCRIPTION",
            "imgcache \(text(CommandLineTool.purpose)).",
            "Each verb below takes its own options;",
            ".B \\-\\-version",
            "prints the version and the commit the binary was built from.",
            ".SH VERBS",
        ]
        for command in commands {
            lines += [".SS \(command.name)", text(command.summary) + ".", ".PP", ".B Usage:", text(command.usage)]
            lines += paragraphs(command.about)
            if !command.subverbs.isEmpty { lines += [".PP", "Verbs:"] + command.subverbs.flatMap(entry) }
            if !command.options.isEmpty { lines += [".PP", "Options:"] + command.options.flatMap(entry) }
        }
        lines += [".SH EXIT STATUS"] + paragraphs(CommandLineTool.exitCodes)
        lines += [".SH SEE ALSO", "README.md and the docs folder of imgcache's sources, and", ".B imgcache", ".I verb", ".BR \\-\\-help ."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A `.TP` entry: the names in bold, the placeholder in italics, the description as one paragraph.
    private static func entry(_ option: OptionHelp) -> [String] {
        let names = option.names.map { "\\fB\(text($0))\\fR" }.joined(separator: ", ")
        let placeholder = option.placeholder.map { " \\fI\(text($0))\\fR" } ?? ""
        return [".TP", names + placeholder, text(joined(option.text))]
    }

    /// Paragraphs (separated by blank lines) of wrapped lines, each filled by man.
    private static func paragraphs(_ source: String) -> [String] {
        source.components(separatedBy: "\n\n").flatMap { [".PP", text(joined($0))] }
    }

    /// `--help`'s wrapped lines as one line.
    private static func joined(_ lines: String) -> String {
        lines.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// `plain` as roff text: backslashes and hyphens escaped, a leading '.' or '\'' guarded.
    private static func text(_ plain: String) -> String {
        let escaped = plain.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
