import Foundation

/// The bash completion: `_imgcache` completes the verb, then the verb's options, the enumerated
/// values of the option before the cursor (the part after the last comma of a list), files for
/// file options and operands, folders for folder options.
enum BashCompletion: CompletionScript {
    static let shell = "bash"
    static let installPath = "usr/share/bash-completion/completions/imgcache"

    static func script(for commands: [any Command.Type]) -> String {
        let verbs = commands.map { verb(in: $0) }.joined(separator: "\n")
        return """
            # bash completion for imgcache, written by 'imgcache completions bash'; sourced from
            # ~/.bashrc, or installed as:
            # /\(installPath)

            # Sets COMPREPLY to the words of $2 (one a line) that start with $1; with $3 = list, only
            # the part of $1 after its last comma is completed.
            _imgcache_words() {
                local cur=$1 prefix= word
                if [ "${3-}" = list ] && [[ $cur == *,* ]]; then prefix=${cur%,*},; cur=${cur##*,}; fi
                local IFS=$'\\n'
                COMPREPLY=()
                for word in $(compgen -W "$2" -- "$cur"); do
                    word=$(printf '%q' "$prefix$word")
                    COMPREPLY+=("${word//\\\\,/,}")
                done
            }

            # Sets COMPREPLY to the files ($2 = -f) or folders ($2 = -d) that start with $1.
            _imgcache_paths() {
                compopt -o filenames 2>/dev/null
                local IFS=$'\\n'
                COMPREPLY=($(compgen "$2" -- "$1"))
            }

            _imgcache() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=
                [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
                cur=${cur//\\\\/}
                if [ "$COMP_CWORD" -le 1 ]; then
                    _imgcache_words "$cur" \(words(commands.map { $0.name } + ["--help", "--version"]))
                    return
                fi
                case ${COMP_WORDS[1]} in
            \(verbs)
                esac
            }

            complete -F _imgcache imgcache

            """
    }

    /// The `case` branch of one verb.
    private static func verb(in command: any Command.Type) -> String {
        let options = command.options + [OptionHelp(["-h", "--help"], "")]
        // One branch for each way of completing, naming every option completed that way.
        var branches: [(names: [String], completion: String)] = []
        for option in options where option.takesValue {
            let completion = completion(of: option.value)
            if let index = branches.firstIndex(where: { $0.completion == completion }) {
                branches[index].names += option.names
            } else {
                branches.append((option.names, completion))
            }
        }
        let values = branches.map { "        \($0.names.joined(separator: "|"))) \($0.completion); return ;;" }
        let operands = command.operands.map(completion(of:)) ?? "COMPREPLY=()"
        return """
                \(command.name))
                    case $prev in
            \(values.joined(separator: "\n"))
                    esac
                    if [[ $cur == -* ]]; then
                        _imgcache_words "$cur" \(words(options.flatMap(\.names)))
                    else
                        \(operands)
                    fi
                    ;;
            """
    }

    /// The command that sets COMPREPLY for a value of this kind.
    private static func completion(of value: OptionHelp.Value) -> String {
        switch value {
        case .flag, .optionalNumber, .text: return "COMPREPLY=()"
        case .file: return "_imgcache_paths \"$cur\" -f"
        case .directory: return "_imgcache_paths \"$cur\" -d"
        case .words(let words): return "_imgcache_words \"$cur\" \(Self.words(words))"
        case .list(let words): return "_imgcache_words \"$cur\" \(Self.words(words)) list"
        }
    }

    /// `words`, one a line, as a bash `$'...'` word whose lines compgen -W reads back unchanged
    /// (its quote removal undone by a backslash before each quoting character).
    private static func words(_ words: [String]) -> String {
        let forCompgen = words.map { word in
            word.map { "\\'\"$`".contains($0) ? "\\\($0)" : String($0) }.joined()
        }
        let quoted = forCompgen.joined(separator: "\n")
            .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "$'\(quoted)'"
    }
}
