import Foundation

/// The repository's documentation as tests read it: the README, the pages of `docs/` and the
/// DocC articles, and the fenced code blocks in them.
public enum DocumentationPages {
    /// The repository's root folder.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fenced code block: the page it is on (its path in the repository), its info string
    /// (`swift`, `console`, `sh`, or empty) and its lines.
    public struct CodeBlock {
        public let page: String
        public let language: String
        public let lines: [String]

        /// The lines joined by newlines, without a newline after the last.
        public var code: String { lines.joined(separator: "\n") }
    }

    /// README.md and docs/*.md, by path in the repository.
    public static func readerPages() throws -> [String] {
        try ["README.md"] + markdownFiles(in: "docs")
    }

    /// The DocC articles and landing page, by path in the repository.
    public static func articles() throws -> [String] {
        try markdownFiles(in: "Sources/ImgCache/ImgCache.docc")
    }

    /// The fenced code blocks of the pages at `paths` (in the repository), in order.
    public static func codeBlocks(in paths: [String]) throws -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        for path in paths {
            let text = try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
            var open: (language: String, lines: [String])?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if let current = open {
                    if line == "```" {
                        blocks.append(CodeBlock(page: path, language: current.language, lines: current.lines))
                        open = nil
                    } else {
                        open?.lines.append(line)
                    }
                } else if line.hasPrefix("```") {
                    open = (String(line.dropFirst(3)), [])
                }
            }
        }
        return blocks
    }

    private static func markdownFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
    }
}
