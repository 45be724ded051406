// Lists the symbols of a symbol graph (swift-symbolgraph-extract's JSON) that have no doc comment,
// one `file:line: path (kind)` line each, and exits 1 when there is any: `make docs` runs it on
// ImgCache's public symbols. Symbols the compiler synthesises (`hashValue` for a Hashable enum,
// say) have no place in the source to document and are left out.
//
// Usage: swift Tools/undocumented-symbols.swift GRAPH.symbols.json
import Foundation

struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Kind: Decodable { let displayName: String }
        struct Location: Decodable {
            struct Position: Decodable { let line: Int }
            let uri: String
            let position: Position
        }
        struct DocComment: Decodable {}

        let kind: Kind
        let pathComponents: [String]
        let docComment: DocComment?
        let location: Location?
    }

    let symbols: [Symbol]
}

/// The symbol's source file relative to the current folder when it is under it, else as given.
func displayPath(_ uri: String) -> String {
    let path = URL(string: uri)?.path ?? uri
    let folder = FileManager.default.currentDirectoryPath + "/"
    return path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("undocumented-symbols: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else { fail("usage: undocumented-symbols GRAPH.symbols.json", status: 2) }
let graph: SymbolGraph
do {
    graph = try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
} catch {
    fail("cannot read \(arguments[1]): \(error)", status: 2)
}

let undocumented = graph.symbols
    .compactMap { symbol -> (file: String, line: Int, text: String)? in
        guard symbol.docComment == nil, let location = symbol.location else { return nil }
        let name = symbol.pathComponents.joined(separator: ".")
        // Symbol graph lines count from 0.
        return (displayPath(location.uri), location.position.line + 1, "\(name) (\(symbol.kind.displayName.lowercased()))")
    }
    .sorted { ($0.file, $0.line, $0.text) < ($1.file, $1.line, $1.text) }
for symbol in undocumented {
    print("\(symbol.file):\(symbol.line): \(symbol.text) has no doc comment")
}
if !undocumented.isEmpty {
    fail("\(undocumented.count) of \(graph.symbols.count) symbols have no doc comment", status: 1)
}
print("undocumented-symbols: all \(graph.symbols.count) symbols are documented")
