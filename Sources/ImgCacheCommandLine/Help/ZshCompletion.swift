import Foundation

/// The zsh completion: the verbs with their summaries, then each verb's options through
/// `_arguments`, with their first description line, enumerated values (`_sequence` for
/// comma-separated lists), files and folders.
enum ZshCompletion: CompletionScript {
    static let shell = "zsh"
    static let installPath = "usr/share/zsh/vendor-completions/_imgcache"

    static func script(for commands: [any Command.Type]) -> String {
        let verbs = commands.map { "        \(quoted("\($0.name):\($0.summary)"))" }.joined(separator: "\n")
        let branches = commands.map(branch(for:)).joined(separator: "\n")
        return """
            #compdef imgcache
            # zsh completion for imgcache, written by 'imgcache completions zsh'; installed in a
            # folder on $fpath, as:
            # /\(installPath)

            _imgcache() {
                local -a verbs
                verbs=(
            \(verbs)
                )
                if (( CURRENT == 2 )); then
                    _describe -t verbs 'imgcache verb' verbs
                    compadd -- --help --version
                    return
                fi
                local verb=$words[2]
                shift words
                (( CURRENT-- ))
                case $verb in
            \(branches)
                esac
            }

            _imgcache "$@"

            """
    }

    /// The `case` branch of one verb: `_arguments` with a spec for each name of each option.
    private static func branch(for command: any Command.Type) -> String {
        var specs = command.options.flatMap { option in
            option.names.map { name in quoted("*\(name)[\(escaped(option.summary))]" + action(option)) }
        }
        specs.append(quoted("(- *)--help[show the verb's help]"))
        if let operands = command.operands { specs.append(quoted("*:operand:" + action(operands))) }
        return """
                \(command.name))
                    _arguments -S \\
                        \(specs.joined(separator: " \\\n            "))
                    ;;
            """
    }

    /// `:PLACEHOLDER:ACTION` for an option that takes a value, "" for a flag.
    private static func action(_ option: OptionHelp) -> String {
        guard option.takesValue else { return "" }
        return ":\(escaped(option.placeholder ?? "value")):" + action(option.value)
    }

    /// The `_arguments` action completing a value of this kind.
    private static func action(_ value: OptionHelp.Value) -> String {
        switch value {
        case .flag, .optionalNumber, .text: return " "
        case .file: return "_files"
        case .directory: return "_files -/"
        case .words(let words): return "(\(words.map(backslashed).joined(separator: " ")))"
        case .list(let words): return "_sequence compadd - \(words.map(backslashed).joined(separator: " "))"
        }
    }

    /// `text` with the characters `_arguments` reads in a description or message escaped.
    private static func escaped(_ text: String) -> String {
        text.map { "[]:\\".contains($0) ? "\\\($0)" : String($0) }.joined()
    }

    /// A word with every character but letters, digits, '-', '_', '.' and ',' behind a backslash.
    private static func backslashed(_ word: String) -> String {
        word.map { $0.isLetter || $0.isNumber || "-_.,".contains($0) ? String($0) : "\\\($0)" }.joined()
    }

    /// `text` in single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
