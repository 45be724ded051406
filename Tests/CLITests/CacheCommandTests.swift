import Foundation
import TestSupport
import XCTest
import ImgCache

final class CacheCommandTests: XCTestCase {
    private func populatedCache(_ folder: URL) throws -> DiskCache {
        let cache = try DiskCache(configuration: .init(root: folder, syncWrites: false))
        try cache.store(Data(repeating: 1, count: 1000), for: "https://example.com/photos/cat.gif", contentType: "image/gif", etag: "\"c\"")
        try cache.store(Data(repeating: 2, count: 500), for: "https://example.com/image")
        try cache.store(Data(repeating: 3, count: 200), for: "https://example.com/image|fit 100x100", kind: .variant(of: "https://example.com/image"), format: .png)
        return cache
    }

    private func json(_ result: ProductRunner.Result) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    }

    func testStatsAndLsDescribeWhatIsStored() throws {
        let folder = try CLIRunner.temporaryFolder()
        _ = try populatedCache(folder)

        let stats = try CLIRunner.run(["cache", "stats", "--json", "--cache-dir", folder.path])
        XCTAssertEqual(stats.status, 0, stats.errors)
        let figures = try XCTUnwrap(json(stats) as? [String: Any])
        XCTAssertEqual(figures["entries"] as? Int, 3)
        XCTAssertEqual(figures["bytes"] as? Int, 1700)
        XCTAssertEqual(figures["originals"] as? Int, 2)
        XCTAssertEqual(figures["variants"] as? Int, 1)
        XCTAssertEqual(figures["sizeLimit"] as? Int, 256 * 1024 * 1024)
        XCTAssertEqual(figures["root"] as? String, folder.path)

        let listing = try CLIRunner.run(["cache", "ls", "--json", "--cache-dir", folder.path])
        XCTAssertEqual(listing.status, 0, listing.errors)
        let entries = try XCTUnwrap(json(listing) as? [[String: Any]])
        XCTAssertEqual(entries.count, 3)
        let cat = try XCTUnwrap(entries.first { $0["key"] as? String == "https://example.com/photos/cat.gif" })
        XCTAssertEqual(cat["file"] as? String, "4c8dfa2c9e390aadec8f32471a803ea8.gif")
        XCTAssertEqual(cat["bytes"] as? Int, 1000)
        XCTAssertEqual(cat["etag"] as? String, "\"c\"")
        XCTAssertEqual(cat["kind"] as? String, "original")
        let variant = try XCTUnwrap(entries.first { $0["kind"] as? String == "variant" })
        XCTAssertEqual(variant["original"] as? String, "https://example.com/image")

        let text = try CLIRunner.run(["cache", "ls", "--cache-dir", folder.path])
        XCTAssertEqual(text.output.split(separator: "\n").count, 3)
        XCTAssertTrue(text.output.contains("      1000  original  "), text.output)
        let summary = try CLIRunner.run(["cache", "stats", "--cache-dir", folder.path])
        XCTAssertTrue(summary.output.contains("entries: 3 (2 originals, 1 variants)"), summary.output)
    }

    func testPathPrintsTheHashedFileUnderData() throws {
        let folder = try CLIRunner.temporaryFolder()
        let absent = try CLIRunner.run(["cache", "path", "https://example.com/photos/cat.gif?w=200", "--cache-dir", folder.path])
        XCTAssertEqual(absent.status, 0, absent.errors)
        XCTAssertEqual(absent.output, folder.path + "/data/4b917c5c9e6a2783d116f549e4a7b162.gif\n")

        _ = try populatedCache(folder)
        let variant = try CLIRunner.run(["cache", "path", "https://example.com/image|fit 100x100", "--json", "--cache-dir", folder.path])
        let described = try XCTUnwrap(json(variant) as? [String: Any])
        XCTAssertEqual(described["stored"] as? Bool, true)
        XCTAssertEqual(described["bytes"] as? Int, 200)
        XCTAssertEqual(described["path"] as? String,
                       folder.path + "/data/" + CacheKey.hashedName(for: "https://example.com/image|fit 100x100") + ".png")
    }

    func testVerifyExitsSevenOnInconsistenciesUntilRepaired() throws {
        let folder = try CLIRunner.temporaryFolder()
        let cache = try populatedCache(folder)
        try FileManager.default.removeItem(at: try XCTUnwrap(cache.entry(for: "https://example.com/image")).fileURL)
        let stray = CacheKey.fileName(forOriginal: "https://example.com/stray.png")
        try Data("stray".utf8).write(to: folder.appendingPathComponent("data/" + stray))
        // Not a name the cache gives: not the cache's, neither reported nor removed.
        try Data("mine".utf8).write(to: folder.appendingPathComponent("data/notes.txt"))

        let found = try CLIRunner.run(["cache", "verify", "--cache-dir", folder.path])
        XCTAssertEqual(found.status, 7)
        XCTAssertTrue(found.output.contains("row without file: https://example.com/image"), found.output)
        XCTAssertTrue(found.output.contains("file without row: data/\(stray)"), found.output)
        XCTAssertFalse(found.output.contains("notes.txt"), found.output)
        XCTAssertEqual(found.errors.split(separator: "\n").count, 1)
        XCTAssertTrue(found.errors.contains("2 inconsistencies"), found.errors)

        let asJSON = try CLIRunner.run(["cache", "verify", "--json", "--cache-dir", folder.path])
        XCTAssertEqual(asJSON.status, 7)
        let report = try XCTUnwrap(json(asJSON) as? [String: Any])
        XCTAssertEqual(report["rowsWithoutFiles"] as? [String], ["https://example.com/image"])
        XCTAssertEqual(report["filesWithoutRows"] as? [String], [stray])
        XCTAssertEqual(report["consistent"] as? Bool, false)

        let repaired = try CLIRunner.run(["cache", "verify", "--repair", "--cache-dir", folder.path])
        XCTAssertEqual(repaired.status, 0, repaired.errors)
        XCTAssertTrue(repaired.output.contains("2 inconsistencies, repaired"), repaired.output)
        let clean = try CLIRunner.run(["cache", "verify", "--cache-dir", folder.path])
        XCTAssertEqual(clean.status, 0)
        XCTAssertTrue(clean.output.hasSuffix("consistent\n"), clean.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/" + stray).path))
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("data/notes.txt")), Data("mine".utf8))
    }

    func testPruneTrimsToTheLowWaterMarkAndClearEmptiesTheCache() throws {
        let folder = try CLIRunner.temporaryFolder()
        let cache = try DiskCache(configuration: .init(root: folder, syncWrites: false))
        for number in 0..<10 { try cache.store(Data(repeating: 1, count: 1000), for: "https://example.com/\(number).jpg") }

        let pruned = try CLIRunner.run(["cache", "prune", "--size-limit", "5000", "--json", "--cache-dir", folder.path])
        XCTAssertEqual(pruned.status, 0, pruned.errors)
        let removal = try XCTUnwrap(json(pruned) as? [String: Any])
        XCTAssertEqual(removal["removed"] as? Int, 7)
        XCTAssertEqual(removal["remainingBytes"] as? Int, 3000)
        XCTAssertEqual(Set(try cache.entries().map(\.key)), Set((7..<10).map { "https://example.com/\($0).jpg" }))

        let cleared = try CLIRunner.run(["cache", "clear", "--cache-dir", folder.path])
        XCTAssertEqual(cleared.status, 0, cleared.errors)
        XCTAssertEqual(cleared.output, "removed 3 entries (2.9 KB); 0 left (0 B)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("data").path), [])
    }

    func testTheDefaultFolderComesFromIMGCACHE_DIR() throws {
        let folder = try CLIRunner.temporaryFolder().appendingPathComponent("from-env")
        setenv("IMGCACHE_DIR", folder.path, 1)
        defer { unsetenv("IMGCACHE_DIR") }
        let result = try CLIRunner.run(["cache", "path", "https://example.com/image"])
        XCTAssertEqual(result.output, folder.path + "/data/eb127595af6b7f91004c22ea425a893c\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    func testErrorsGiveOneLineAndTheDocumentedExitCode() throws {
        let folder = try CLIRunner.temporaryFolder()
        let file = folder.appendingPathComponent("file")
        try Data().write(to: file)
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["cache", "frob"], 2, "unknown cache verb 'frob'"),
            (["cache"], 2, "missing argument"),
            (["cache", "path"], 2, "missing URL"),
            (["cache", "stats", "extra"], 2, "unexpected argument 'extra'"),
            (["cache", "stats", "--repair"], 2, "--repair applies to 'verify' only"),
            (["cache", "prune", "--size-limit", "lots"], 2, "--size-limit expects"),
            (["cache", "stats", "--cache-dir", file.path + "/cache"], 6, "cannot create folder"),
        ]
        for testCase in cases {
            let result = try CLIRunner.run(testCase.arguments + (testCase.arguments.contains("--cache-dir") ? [] : ["--cache-dir", folder.path]))
            XCTAssertEqual(result.status, testCase.status, "\(testCase.arguments): \(result.errors)")
            XCTAssertTrue(result.errors.contains(testCase.message), "\(testCase.arguments): \(result.errors)")
            XCTAssertEqual(result.errors.split(separator: "\n").count, 1, result.errors)
        }
        let help = try CLIRunner.run(["cache", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.output.contains("verify"))
    }
}
