import Foundation

/// The fish completion: the verbs with their summaries, then for each verb its options with their
/// first description line, enumerated values (the part after the last comma for a list), files
/// and folders.
enum FishCompletion: CompletionScript {
    static let shell = "fish"
    static let installPath = "usr/share/fish/vendor_completions.d/imgcache.fish"

    static func script(for commands: [any Command.Type]) -> String {
        var lines = [
            "# fish completion for imgcache, written by 'imgcache completions fish'; installed as:",
            "# /\(installPath)",
            "",
            "# The words of $argv, each after the part of the token being completed up to its last comma.",
            "function __imgcache_list",
            "    set -l prefix (string match -r '.*,' -- (commandline -ct))",
            "    for word in $argv",
            "        printf '%s%s\\n' \"$prefix\" $word",
            "    end",
            "end",
            "",
            "complete -c imgcache -f",
            "complete -c imgcache -n __fish_use_subcommand -l help -d 'show the verbs'",
            "complete -c imgcache -n __fish_use_subcommand -l version -d 'show the version and commit'",
        ]
        lines += commands.map { "complete -c imgcache -n __fish_use_subcommand -a \($0.name) -d \(quoted($0.summary))" }
        for command in commands {
            let condition = "-n " + quoted("__fish_seen_subcommand_from \(command.name)")
            lines.append("")
            lines += command.options.map { option in
                let names = option.names.map { $0.hasPrefix("--") ? "-l \($0.dropFirst(2))" : "-s \($0.dropFirst())" }
                return (["complete -c imgcache", condition] + names + [argument(option.value), "-d " + quoted(option.summary)])
                    .filter { !$0.isEmpty }.joined(separator: " ")
            }
            lines.append("complete -c imgcache \(condition) -s h -l help -d " + quoted("show the verb's help"))
            if let operands = command.operands {
                lines.append("complete -c imgcache \(condition) \(argument(operands, operand: true))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `complete` arguments for a value of this kind: what it offers, and whether it takes one.
    private static func argument(_ value: OptionHelp.Value, operand: Bool = false) -> String {
        let takes = operand ? "" : "-r "
        switch value {
        case .flag, .optionalNumber: return ""
        case .text: return operand ? "" : "-x"
        case .file: return takes + "-F"
        case .directory: return takes + "-f -a " + quoted("(__fish_complete_directories)")
        case .words(let words): return takes + "-f -a " + quoted(words.map(quoted).joined(separator: " "))
        case .list(let words): return takes + "-f -a " + quoted("(__imgcache_list \(words.map(quoted).joined(separator: " ")))")
        }
    }

    /// `text` in fish's single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
