import Foundation
import ImgCache

/// Dispatches `imgcache <verb> ...` to its command and turns errors into one line and an exit code.
/// The `imgcache` executable is `exit(CommandLineTool.run(arguments))`.
public enum CommandLineTool {
    /// The version `imgcache --version` prints.
    static let version = "0.1.0"

    /// The commit the binary was built from (see `BuildCommit`): 12 hex digits, "-dirty" after
    /// them when tracked files differed from it, or "unknown" for a build outside a git checkout.
    static let commit = BuildCommit.id

    /// What `imgcache --version` prints: `imgcache VERSION (commit COMMIT)`.
    static var versionLine: String { "imgcache \(version) (commit \(commit))" }

    static var commands: [any Command.Type] {
        [FetchCommand.self, PrefetchCommand.self, DecodeCommand.self, InfoCommand.self, DevicesCommand.self, LayoutCommand.self,
         SliceCommand.self, OverlayCommand.self, CacheCommand.self, ServeCommand.self, CompletionsCommand.self, ManCommand.self]
    }

    /// What imgcache is, for the general help and the man page's NAME.
    static let purpose = "prepares images for small, memory-capped surfaces such as widgets"

    /// The exit codes, for the general help and the man page.
    static let exitCodes = """
        Exit codes: 0 success, 1 unexpected failure, 2 bad command line, 3 unsupported format,
        4 corrupt image, 5 image over a pixel limit, 6 file read or write error, 7 cache index error,
        8 network failure or time-out, 9 HTTP error status, 10 download over the byte limit,
        11 some URLs of a prefetch failed, 12 a URL or redirect refused, 13 --cache-only found
        nothing stored.
        """

    static var generalHelp: String {
        let verbs = commands.map { "  \($0.name.padding(toLength: 12, withPad: " ", startingAt: 0))\($0.summary)" }
        return """
            imgcache \(version): \(purpose).

            Usage: imgcache <verb> [options]

            Verbs:
            \(verbs.joined(separator: "\n"))

            Run 'imgcache <verb> --help' for a verb's options, 'imgcache --version' for the version
            and commit.
            \(exitCodes)
            """
    }

    /// Runs the command line (without the program name) and returns the exit code.
    public static func run(_ words: [String]) -> Int32 {
        guard let verb = words.first else {
            printError(generalHelp)
            return ExitStatus.usage.rawValue
        }
        switch verb {
        case "--help", "-h", "help":
            print(generalHelp)
            return ExitStatus.success.rawValue
        case "--version":
            print(versionLine)
            return ExitStatus.success.rawValue
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == verb }) else {
            printError("imgcache: unknown verb '\(verb)'; run 'imgcache --help'")
            return ExitStatus.usage.rawValue
        }
        var arguments = ArgumentList(Array(words.dropFirst()))
        if arguments.flag("--help", "-h") {
            print(command.help)
            return ExitStatus.success.rawValue
        }
        do {
            try command.run(&arguments)
            return ExitStatus.success.rawValue
        } catch {
            let (status, message) = ExitStatus.describing(error)
            printError("imgcache \(verb): \(message)")
            return status.rawValue
        }
    }

    /// Writes one line to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
