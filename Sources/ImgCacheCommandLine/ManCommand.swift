/// `imgcache man`
enum ManCommand: Command {
    static let name = "man"
    static let summary = "print the manual page (roff), as 'man imgcache' shows it"
    static let usage = "imgcache man"
    static let about = """
        Prints imgcache(1) in roff: every verb with its options, and the exit codes. Debian's
        package installs it; else: imgcache man | man -l -
        """
    static let options: [OptionHelp] = []
    static var operands: OptionHelp.Value? { nil }

    static func run(_ arguments: inout ArgumentList) throws {
        _ = try arguments.positionals(0, usage: usage)
        print(ManPage.page(for: CommandLineTool.commands), terminator: "")
    }
}
