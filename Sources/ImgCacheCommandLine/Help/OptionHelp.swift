/// One option of a verb (or one of `cache`'s verbs) as `--help` prints it and as the shell
/// completions and the man page offer it: its names, the placeholder of its value, what that
/// value may be, and its description in the lines `--help` prints.
struct OptionHelp {
    /// What an option's value may be, for completion.
    enum Value {
        /// No value: the option is a flag.
        case flag
        /// A number that may be left out (`--palette [COLORS]`): completed as a flag.
        case optionalNumber
        /// Free text: nothing is offered.
        case text
        /// A file (or a URL).
        case file
        /// A folder.
        case directory
        /// One of these words.
        case words([String])
        /// These words, several comma-separated.
        case list([String])
    }

    /// The names, short first (`-o`, `--output`).
    let names: [String]
    /// The value's placeholder in `--help` (`FILE`), nil for a flag.
    let placeholder: String?
    let value: Value
    /// The description, one `--help` line per line.
    let text: String

    /// A flag.
    init(_ name: String, _ text: String) {
        self.init([name], text)
    }

    /// A flag with several names.
    init(_ names: [String], _ text: String) {
        self.names = names
        self.placeholder = nil
        self.value = .flag
        self.text = text
    }

    /// An option that takes a value.
    init(_ name: String, _ placeholder: String, _ value: Value, _ text: String) {
        self.init([name], placeholder, value, text)
    }

    /// An option with several names that takes a value.
    init(_ names: [String], _ placeholder: String, _ value: Value, _ text: String) {
        self.names = names
        self.placeholder = placeholder
        self.value = value
        self.text = text
    }

    /// The names and placeholder as `--help` prints them: `-o, --output FILE`.
    var head: String {
        names.joined(separator: ", ") + (placeholder.map { " \($0)" } ?? "")
    }

    /// True when the option reads the next word as its value.
    var takesValue: Bool {
        switch value {
        case .flag, .optionalNumber: return false
        case .text, .file, .directory, .words, .list: return true
        }
    }

    /// The option in `--help`'s layout: indented two spaces, the description from `column`
    /// (two spaces after a longer head), its further lines indented to `column`.
    func help(column: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = head + String(repeating: " ", count: head.count < column ? column - head.count : 2)
        let indent = String(repeating: " ", count: column + 2)
        return (["  " + first + (lines.first ?? "")] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }
}

extension [OptionHelp] {
    /// The options in `--help`'s layout, one after another (see `OptionHelp.help(column:)`).
    func help(column: Int = 20) -> String {
        map { $0.help(column: column) }.joined(separator: "\n")
    }
}
