/// `imgcache completions bash|zsh|fish`
enum CompletionsCommand: Command {
    static let name = "completions"
    static let summary = "print the bash, zsh or fish completion script"
    static let usage = "imgcache completions bash|zsh|fish"
    static let about = """
        Prints the shell's completion script for every verb, option and enumerated value (--widget
        families, --device names, --format...). Debian's package installs each in its shell's folder;
        else, for bash: imgcache completions bash > ~/.local/share/bash-completion/completions/imgcache
        """
    static let options: [OptionHelp] = []
    static var operands: OptionHelp.Value? { .words(CompletionScripts.all.map { $0.shell }) }

    static func run(_ arguments: inout ArgumentList) throws {
        let shell = try arguments.positionals(1, usage: usage)[0]
        guard let script = CompletionScripts.all.first(where: { $0.shell == shell }) else {
            throw UsageError("no completion for '\(shell)': give bash, zsh or fish")
        }
        print(script.script(for: CommandLineTool.commands), terminator: "")
    }
}
