import Foundation
import TestSupport
import XCTest

/// `imgcache completions` and `imgcache man`, written from the tables `--help` prints: every verb
/// and option of `--help` is in each script and in the page, bash, zsh and fish complete real
/// command lines with them, and the page formats without a warning.
final class HelpTablesCommandTests: XCTestCase {
    /// Every verb `imgcache --help` lists, with the options its `--help` prints (names only).
    private func verbsAndOptions() throws -> [(verb: String, options: [String])] {
        let general = try CLIRunner.run(["--help"])
        XCTAssertEqual(general.status, 0, general.errors)
        let verbSection = general.output.components(separatedBy: "Verbs:\n")[1].components(separatedBy: "\n\n")[0]
        let verbs = verbSection.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertEqual(verbs.count, 12, verbSection)
        let optionHead = try NSRegularExpression(pattern: "^  (--?[A-Za-z][\\w-]*(?:, --?[A-Za-z][\\w-]*)*)", options: .anchorsMatchLines)
        return try verbs.map { verb in
            let help = try CLIRunner.run([verb, "--help"])
            XCTAssertEqual(help.status, 0, help.errors)
            let text = help.output as NSString
            let options = optionHead.matches(in: help.output, range: NSRange(location: 0, length: text.length)).flatMap {
                text.substring(with: $0.range(at: 1)).components(separatedBy: ", ")
            }
            return (verb, options)
        }
    }

    private func output(_ arguments: [String]) throws -> String {
        let result = try CLIRunner.run(arguments)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.errors, "")
        return result.output
    }

    func testEveryVerbAndOptionOfHelpIsInEachCompletionScriptAndTheManPage() throws {
        let bash = try output(["completions", "bash"]), zsh = try output(["completions", "zsh"])
        let fish = try output(["completions", "fish"]), man = try output(["man"])
        let verbs = try verbsAndOptions()
        XCTAssertGreaterThan(verbs.flatMap(\.options).count, 150)
        for (verb, options) in verbs {
            XCTAssertTrue(bash.contains("\n    \(verb))\n"), "bash: no branch for \(verb)")
            XCTAssertTrue(zsh.contains("'\(verb):") && zsh.contains("\n    \(verb))\n"), "zsh: no \(verb)")
            XCTAssertTrue(fish.contains("-a \(verb) -d"), "fish: no \(verb)")
            XCTAssertTrue(man.contains("\n.SS \(verb)\n"), "man: no \(verb)")
            let bashBranch = bash.components(separatedBy: "\n    \(verb))\n")[1].components(separatedBy: "\n        ;;\n")[0]
            let zshBranch = zsh.components(separatedBy: "\n    \(verb))\n")[1].components(separatedBy: "\n        ;;\n")[0]
            let fishLines = fish.split(separator: "\n").filter { $0.contains("'__fish_seen_subcommand_from \(verb)'") }.joined(separator: "\n")
            let manSection = man.components(separatedBy: "\n.SS \(verb)\n")[1].components(separatedBy: "\n.SS ")[0]
            for option in options {
                XCTAssertTrue(bashBranch.contains("\\n\(option)\\n") || bashBranch.contains("$'\(option)\\n"), "bash: \(verb) \(option)")
                XCTAssertTrue(zshBranch.contains("'*\(option)[") || zshBranch.contains("--help["), "zsh: \(verb) \(option)")
                let fishName = option.hasPrefix("--") ? "-l \(option.dropFirst(2)) " : "-s \(option.dropFirst()) "
                XCTAssertTrue(fishLines.contains(fishName), "fish: \(verb) \(option)")
                XCTAssertTrue(manSection.contains("\\fB\(option.replacingOccurrences(of: "-", with: "\\-"))\\fR"), "man: \(verb) \(option)")
            }
        }
    }

    /// bash with the script sourced, COMP_WORDS and COMP_CWORD set as bash sets them at a TAB:
    /// the words `_imgcache` puts in COMPREPLY, one a line.
    private func bashCompletions(_ words: [String], script: URL) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let command = "source '\(script.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _imgcache; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try ProductRunner.runTool("bash", ["--norc", "-c", command])
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output.split(separator: "\n").map(String.init)
    }

    func testBashCompletesVerbsOptionsAndTheirValues() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("imgcache.bash")
        try Data(try output(["completions", "bash"]).utf8).write(to: script)
        XCTAssertEqual(try bashCompletions(["imgcache", "fetch", "--wid"], script: script), ["--widget"])
        XCTAssertEqual(try bashCompletions(["imgcache", "pre"], script: script), ["prefetch"])
        XCTAssertEqual(try bashCompletions(["imgcache", "fetch", "--mode", "f"], script: script), ["fit", "fill"])
        XCTAssertEqual(try bashCompletions(["imgcache", "prefetch", "--widget", "small,acc"], script: script),
                       ["small,accessory-circular", "small,accessory-rectangular", "small,accessory-inline"])
        XCTAssertEqual(try bashCompletions(["imgcache", "fetch", "--device", "iPhone 16 P"], script: script),
                       ["iPhone\\ 16\\ Plus", "iPhone\\ 16\\ Pro", "iPhone\\ 16\\ Pro\\ Max"])
        XCTAssertEqual(try bashCompletions(["imgcache", "serve", "--auto-format", "avif,"], script: script), ["avif,avif", "avif,webp"])
        XCTAssertEqual(try bashCompletions(["imgcache", "fetch", "x.png", "--format", "webp"], script: script), ["webp", "webp-lossless"])
        XCTAssertEqual(try bashCompletions(["imgcache", "cache", "p"], script: script), ["prune", "path"])
        XCTAssertEqual(try bashCompletions(["imgcache", "completions", ""], script: script), ["bash", "zsh", "fish"])
        XCTAssertEqual(try bashCompletions(["imgcache", "fetch", "--size", ""], script: script), [])
        XCTAssertEqual(try bashCompletions(["imgcache", "fetch", "-o", folder.path + "/imgcache.b"], script: script), [script.path])
    }

    func testFishAndZshCompleteWithTheirScripts() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fish = folder.appendingPathComponent("imgcache.fish"), zsh = folder.appendingPathComponent("_imgcache")
        try Data(try output(["completions", "fish"]).utf8).write(to: fish)
        try Data(try output(["completions", "zsh"]).utf8).write(to: zsh)
        func fishCompletions(_ line: String) throws -> [String] {
            let result = try ProductRunner.runTool("fish", ["--no-config", "-c", "source '\(fish.path)'; complete -C '\(line)'"])
            XCTAssertEqual(result.status, 0, result.errors)
            return result.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        XCTAssertEqual(try fishCompletions("imgcache fetch --wid"), ["--widget"])
        XCTAssertEqual(try fishCompletions("imgcache fetch --widget small,me"), ["small,medium"])
        XCTAssertEqual(try fishCompletions("imgcache slice x.png --position top-"), ["top-left", "top-right"])
        let parsed = try ProductRunner.runTool("zsh", ["-n", zsh.path])
        XCTAssertEqual(parsed.status, 0, parsed.errors)
        // An interactive zsh in a pseudo-terminal: each line as it stands after a TAB.
        let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/zsh_complete.zsh")
        let lines = [
            "imgcache fetch --wid", "imgcache fetch --widget small,me", "imgcache slice x.png --position top-r",
            "imgcache fetch --device iPhone\\ 16\\ Pro\\ M", "imgcache completions z",
        ]
        let completed = try ProductRunner.runTool("zsh", ["-f", driver.path, folder.path] + lines)
        XCTAssertEqual(completed.status, 0, completed.errors)
        XCTAssertEqual(completed.output.split(separator: "\n").map(String.init), [
            "imgcache fetch --widget ", "imgcache fetch --widget small,medium,", "imgcache slice x.png --position top-right ",
            "imgcache fetch --device iPhone\\ 16\\ Pro\\ Max,", "imgcache completions zsh ",
        ])
        let unknown = try CLIRunner.run(["completions", "tcsh"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.errors, "imgcache completions: no completion for 'tcsh': give bash, zsh or fish\n")
    }

    /// man formats the page without a warning (groff's -ww), and it reads as the help does.
    func testManPageFormatsWithoutWarnings() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("imgcache.1")
        try Data(try output(["man"]).utf8).write(to: page)
        let result = try ProductRunner.runTool("env", ["MANWIDTH=100", "LC_ALL=C.UTF-8", "man", "--warnings=w", "-l", page.path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.errors, "")
        XCTAssertTrue(result.output.contains("imgcache - prepares images for small, memory-capped surfaces such as widgets"))
        XCTAssertTrue(result.output.contains("Usage: imgcache fetch URL|PATH [options]"))
        XCTAssertTrue(result.output.contains("--widget FAMILIES"))
        XCTAssertTrue(result.output.contains("EXIT STATUS"))
    }

    /// `imgcache --version`: the version, and the commit git names for the checkout the tests
    /// were built from ("-dirty" when tracked files differ from it), or "unknown" without git.
    /// git is asked when the test runs: a tracked file edited between the build and the test
    /// fails it.
    func testVersionNamesTheCommitItWasBuiltFrom() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let version = try CLIRunner.run(["--version"])
        XCTAssertEqual(version.status, 0, version.errors)
        let printed = try XCTUnwrap(
            version.output.wholeMatch(of: /imgcache 0\.1\.0 \(commit ([0-9a-f]{12}(?:-dirty)?|unknown)\)\n/), version.output).1
        if let given = ProcessInfo.processInfo.environment["IMGCACHE_COMMIT"], !given.isEmpty {
            return XCTAssertEqual(String(printed), given)
        }
        let head = try ProductRunner.runTool("git", ["-C", root.path, "rev-parse", "--short=12", "HEAD"])
        guard head.status == 0 else { return XCTAssertEqual(printed, "unknown") }
        // The build's commit is HEAD or, when commits were made since the build, one of its ancestors.
        let commit = String(printed.prefix(12))
        let ancestor = try ProductRunner.runTool("git", ["-C", root.path, "merge-base", "--is-ancestor", commit, "HEAD"])
        XCTAssertEqual(ancestor.status, 0, "\(printed) is no commit of this checkout's history")
        if commit == head.output.trimmingCharacters(in: .whitespacesAndNewlines) {
            let clean = try ProductRunner.runTool("git", ["-C", root.path, "diff", "--quiet", "HEAD", "--"])
            XCTAssertEqual(printed.hasSuffix("-dirty"), clean.status != 0, "-dirty when tracked files differ from the commit")
        }
    }
}
