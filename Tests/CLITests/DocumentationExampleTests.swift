import Foundation
import TestSupport
import XCTest

/// The shell examples of README.md and docs/*.md. A ```console block is run: each `$ imgcache ...`
/// line in turn, in a fresh folder per page where `Samples` is the repository's, and what it prints
/// must be the lines under it (a line `...` stands for any lines). An example of a verb that needs
/// nothing but the repository (`decode`, `info`, `slice`, `overlay`, `layout`, `devices`) and names
/// no URL or variable must be such a block, so that no example that can run goes unchecked. Every
/// link between the pages must lead to a file and a heading that exist.
final class DocumentationExampleTests: XCTestCase {
    private static let offlineVerbs: Set<String> = ["decode", "info", "slice", "overlay", "layout", "devices"]

    /// A command of a console block and the lines it must print.
    struct Example {
        let command: String
        let expected: [String]
    }

    /// The `$ ` commands of a console block, each with the lines under it.
    static func examples(in block: DocumentationPages.CodeBlock) -> [Example] {
        var examples: [Example] = []
        for line in block.lines {
            if line.hasPrefix("$ ") {
                examples.append(Example(command: String(line.dropFirst(2)), expected: []))
            } else if let last = examples.popLast() {
                examples.append(Example(command: last.command, expected: last.expected + [line]))
            }
        }
        return examples
    }

    /// The words of `command` as a POSIX shell splits them (quotes and backslashes; no expansion).
    static func words(_ command: String) throws -> [String] {
        var words: [String] = [], word = "", inWord = false
        var quote: Character?, escaped = false
        for character in command {
            if escaped {
                word.append(character); escaped = false; inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character; inWord = true
            } else if character == "\\" {
                escaped = true
            } else if character == " " {
                if inWord { words.append(word); word = ""; inWord = false }
            } else {
                word.append(character); inWord = true
            }
        }
        if quote != nil || escaped { throw CocoaError(.formatting, userInfo: [NSDebugDescriptionErrorKey: "unterminated: \(command)"]) }
        if inWord { words.append(word) }
        return words
    }

    /// True when `actual` is `expected`, each `...` line of which stands for any lines.
    static func matches(_ actual: [String], _ expected: [String]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            return (0...actual.count).contains { matches(Array(actual.dropFirst($0)), Array(expected.dropFirst())) }
        }
        return actual.first == first && matches(Array(actual.dropFirst()), Array(expected.dropFirst()))
    }

    func testTheMatcherAndTheSplitterThemselves() throws {
        XCTAssertTrue(Self.matches(["a", "b", "c"], ["a", "...", "c"]))
        XCTAssertTrue(Self.matches(["a", "c"], ["a", "...", "c"]))
        XCTAssertFalse(Self.matches(["a", "b"], ["a", "c"]))
        XCTAssertFalse(Self.matches(["a", "b", "d"], ["a", "...", "c"]))
        XCTAssertEqual(try Self.words(#"decode "iPhone 16 Pro" 'a b' c\ d"#), ["decode", "iPhone 16 Pro", "a b", "c d"])
        XCTAssertThrowsError(try Self.words(#"decode "open"#))
    }

    func testEveryConsoleExampleRunsAndPrintsWhatThePageShows() throws {
        var ran = 0
        for page in try DocumentationPages.readerPages() {
            let blocks = try DocumentationPages.codeBlocks(in: [page]).filter { $0.language == "console" }
            guard !blocks.isEmpty else { continue }
            let folder = try CLIRunner.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("Samples"),
                withDestinationURL: DocumentationPages.repository.appendingPathComponent("Samples"))
            for example in blocks.flatMap(Self.examples) {
                let words = try Self.words(example.command)
                XCTAssertEqual(words.first, "imgcache", "\(page): only imgcache runs in a console block: \(example.command)")
                guard words.first == "imgcache" else { continue }
                let result = try ProductRunner.run(
                    "imgcache", Array(words.dropFirst()), in: folder,
                    environment: ["HOME": folder.path, "XDG_CACHE_HOME": folder.appendingPathComponent(".cache").path])
                XCTAssertEqual(result.status, 0, "\(page): \(example.command)\n\(result.errors)")
                var printed = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if printed.last == "" { printed.removeLast() }
                XCTAssertTrue(
                    Self.matches(printed, example.expected),
                    "\(page): \(example.command) printed\n\(printed.joined(separator: "\n"))\n"
                        + "where the page shows\n\(example.expected.joined(separator: "\n"))")
                ran += 1
            }
        }
        XCTAssertGreaterThanOrEqual(ran, 8, "the pages' console examples")
    }

    func testNoExampleThatCanRunOfflineIsLeftOutOfAConsoleBlock() throws {
        for block in try DocumentationPages.codeBlocks(in: DocumentationPages.readerPages()) where block.language != "console" {
            for line in block.lines {
                let command = line.trimmingCharacters(in: .whitespaces)
                guard command.hasPrefix("imgcache "), !command.contains("://"), !command.contains("$") else { continue }
                let verb = try Self.words(command).dropFirst().first ?? ""
                XCTAssertFalse(
                    Self.offlineVerbs.contains(verb),
                    "\(block.page): '\(command)' can run offline: show it in a console block with what it prints")
            }
        }
    }

    /// The anchor GitHub gives a heading: lower case, backticks and punctuation dropped, spaces as dashes.
    static func anchor(_ heading: some StringProtocol) -> String {
        String(heading.lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }
            .map { $0 == " " ? "-" : $0 })
    }

    func testEveryLinkBetweenThePagesLeadsToAFileAndAHeadingThatExist() throws {
        var checked = 0
        for page in try DocumentationPages.readerPages() {
            let text = try String(contentsOf: DocumentationPages.repository.appendingPathComponent(page), encoding: .utf8)
            let prose = text.replacing(/```.*?```/.dotMatchesNewlines(), with: "")
            for link in prose.matches(of: /\]\(([^)\s]+)\)/) where !link.1.hasPrefix("http") {
                let parts = link.1.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let folder = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
                let path = parts[0].isEmpty ? page : (folder == "." ? "" : folder + "/") + parts[0]
                let target = DocumentationPages.repository.appendingPathComponent(path).standardizedFileURL
                XCTAssertTrue(FileManager.default.fileExists(atPath: target.path), "\(page): \(link.1) leads to no file")
                if parts.count == 2, target.pathExtension == "md", let contents = try? String(contentsOf: target, encoding: .utf8) {
                    let headings = contents.split(separator: "\n").compactMap { line in
                        line.firstMatch(of: /^#+ (.*)$/).map { Self.anchor($0.1) }
                    }
                    XCTAssertTrue(headings.contains(String(parts[1])), "\(page): \(link.1) names no heading of \(path)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 30, "the pages' links")
    }
}
