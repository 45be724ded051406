/// A shell's completion script for `imgcache`, written from the verbs' help tables (see `Command`).
protocol CompletionScript {
    /// The shell, as `imgcache completions SHELL` names it.
    static var shell: String { get }
    /// Where Debian's package of the shell looks for the script, relative to `/`.
    static var installPath: String { get }
    /// The script for `commands`. It names `installPath` on a line of its own, `# /` and the path
    /// (make deb reads it there).
    static func script(for commands: [any Command.Type]) -> String
}

/// The completion scripts `imgcache completions` writes.
enum CompletionScripts {
    static var all: [any CompletionScript.Type] { [BashCompletion.self, ZshCompletion.self, FishCompletion.self] }
}

extension OptionHelp {
    /// The first line of the description, for the shells that show one next to each option.
    var summary: String {
        String(text.split(separator: "\n", maxSplits: 1).first ?? "")
    }
}
