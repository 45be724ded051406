/// A verb of `imgcache`: its help, as tables that `--help`, the shell completions and the man page
/// all read, and what it does with the words after it.
protocol Command {
    /// The verb, as typed.
    static var name: String { get }
    /// One line for the verb list.
    static var summary: String { get }
    /// The usage line, after "Usage: ".
    static var usage: String { get }
    /// What the verb does: the paragraphs between the usage line and the options.
    static var about: String { get }
    /// The verb's own verbs (`cache stats`, ...), listed before the options; default none.
    static var subverbs: [OptionHelp] { get }
    /// Every option the verb reads.
    static var options: [OptionHelp] { get }
    /// What a word that is no option is, for completion: default a file (or URL); nil when the
    /// verb takes none.
    static var operands: OptionHelp.Value? { get }
    /// The column, after the two-space indent, where option descriptions start in `--help`; default 20.
    static var helpColumn: Int { get }
    /// Runs the verb; throws `UsageError` or `ImgCacheError` for the caller to report.
    static func run(_ arguments: inout ArgumentList) throws
}

extension Command {
    static var subverbs: [OptionHelp] { [] }
    static var operands: OptionHelp.Value? { .file }
    static var helpColumn: Int { 20 }

    /// The full `--help` text: usage, about, the verbs (when there are any) and the options.
    static var help: String {
        var sections = ["Usage: \(usage)", about]
        if !subverbs.isEmpty { sections.append("Verbs:\n" + subverbs.help(column: helpColumn)) }
        if !options.isEmpty { sections.append("Options:\n" + options.help(column: helpColumn)) }
        return sections.joined(separator: "\n\n")
    }
}
